// Start-up work that can wait until the bot is ready stays after it (issue 49 point 13: cold start). The
// built bot publishes its deferrable steps on a diagnostics channel (src/observability/startupSteps.ts);
// this test listens and judges their order against `ready` (the gateway's READY reached the bot): the
// watch's schedule starts after it, and the schedule-interval gauge is worked out at the first scrape.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { STARTUP_CHANNEL, type StartupStep } from '../../src/observability/startupSteps.js';
import { freePort } from '../support/freePort.js';
import { startTestBot, type TestBot } from '../support/startTestBot.js';

const WATCH_CHANNEL = '300000000000000079';

describe('start-up work that can run after READY', () => {
  const steps: StartupStep[] = [];
  const listen = (step: unknown) => steps.push(step as StartupStep);
  let t: TestBot | undefined;

  afterEach(async () => {
    unsubscribe(STARTUP_CHANNEL, listen);
    steps.length = 0;
    await t?.stop();
    t = undefined;
  });

  it('starts the watch schedule after ready, and works out the schedule interval at the first scrape', async () => {
    subscribe(STARTUP_CHANNEL, listen);
    t = await startTestBot({
      WATCH_CHANNEL_ID: WATCH_CHANNEL,
      WATCH_SCHEDULE: '0 0 1 1 *',
      HTTP_PORT: String(await freePort()),
    });
    expect(steps).toEqual(['ready', 'watch-schedule']);

    const metrics = await (await fetch(`http://127.0.0.1:${t.bot.http?.port}/metrics`)).text();
    // A leap year's wait (eight years ahead hold one), as when it was worked out at start-up.
    expect(metrics).toMatch(/^hostops_watch_schedule_interval_seconds 31622400$/m);
    await fetch(`http://127.0.0.1:${t.bot.http?.port}/metrics`);
    expect(steps).toEqual(['ready', 'watch-schedule', 'schedule-interval']);
  });

  it('with the watch off, nothing but ready', async () => {
    subscribe(STARTUP_CHANNEL, listen);
    t = await startTestBot({ HTTP_PORT: String(await freePort()) });
    const metrics = await (await fetch(`http://127.0.0.1:${t.bot.http?.port}/metrics`)).text();
    expect(metrics).not.toContain('hostops_watch_schedule_interval_seconds');
    expect(steps).toEqual(['ready']);
  });
});
