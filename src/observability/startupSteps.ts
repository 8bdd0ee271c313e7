import { channel } from 'node:diagnostics_channel';

/**
 * Start-up work that waits until the bot is ready (interactions can arrive), in the order the process
 * reaches it: `ready` itself, then what is done after it. Published on a diagnostics channel, which costs
 * nothing unless something listens; test/e2e/startupDeferral.test.ts listens, and fails if a step after `ready`
 * comes before it.
 */
export const STARTUP_STEPS = ['ready', 'watch-schedule', 'schedule-interval'] as const;
export type StartupStep = (typeof STARTUP_STEPS)[number];

export const STARTUP_CHANNEL = 'hostops:startup';
const steps = channel(STARTUP_CHANNEL);

export function startupStep(step: StartupStep): void {
  if (steps.hasSubscribers) steps.publish(step);
}
