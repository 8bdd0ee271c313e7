// Issue 43, one clock: every deadline a replica stamps or checks is the store's time, read through
// StoreClock, whose estimate runs on the monotonic clock between readings — so neither replicas whose
// wall clocks disagree by 10 minutes nor a step of one replica's wall clock moves a deadline or an
// HTTP interaction's age. On both engines (SQLite's store clock is its host's; PostgreSQL's the server's).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { ChangeJournal, type JournalledChange, type Requester } from '../../src/changes/ChangeJournal.js';
import { SecretSeal } from '../../src/changes/SecretSeal.js';
import { StoreClock } from '../../src/discord/http/StoreClock.js';
import type { ChangeOperation } from '../../src/hosting/operations.js';
import { createLogger } from '../../src/logger.js';
import { openStore, type Store } from '../../src/store/index.js';
import { createDatabase } from '../support/startPostgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-clock-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const engines = [
  { engine: 'sqlite', url: async () => `sqlite:${join(tmp, 'clock.db')}` },
  { engine: 'postgres', url: () => createDatabase(inject('postgresUrl'), 'one_clock') },
] as const;

const MINUTE = 60_000;
const PROMPT_MS = 2 * MINUTE;
/** Discord's tolerance for an interaction's timestamp (startInteractionsEndpoint). */
const TOLERANCE_MS = 5 * MINUTE;
const SPEC: JournalledChange = { operation: 'setReverseDns' as ChangeOperation };
const PREVIEW = { title: 'Set reverse DNS', fields: [] };
const REQUESTER: Requester = {
  id: '100000000000000001',
  name: 'alice',
  guildId: '300000000000000001',
  channelId: '400000000000000001',
  locale: 'en',
};
const { logger } = createLogger({ level: 'silent' });

afterEach(() => {
  vi.useRealTimers();
});

describe.each(engines)('$engine: one clock', ({ url }) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(await url());
  });
  afterAll(() => store.close());

  /**
   * A replica: its own process's monotonic clock (`skewMs` of uptime apart from the others, and a wall
   * clock 10 minutes off while it measures), and a journal stamping and checking by its StoreClock.
   */
  async function replica(id: string, wallOffsetMs: number) {
    let advancedMs = 0;
    const origin = Math.random() * 1e7;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + wallOffsetMs });
    const clock = await StoreClock.start(
      () => store.replicas.clock(),
      logger,
      () => origin + performance.now() + advancedMs,
    );
    vi.useRealTimers();
    const journal = new ChangeJournal(store, () => clock.date(), PROMPT_MS, id, new SecretSeal('token'));
    return { clock, journal, advance: (ms: number) => (advancedMs += ms) };
  }

  it('two replicas whose clocks differ by 10 minutes both honour a 2-minute prompt deadline to within a second', async () => {
    const ahead = await replica('replica-ahead', +10 * MINUTE);
    const behind = await replica('replica-behind', -10 * MINUTE);
    const open = (target: string) =>
      ahead.journal.open(
        '/server rdns',
        SPEC,
        { parameters: { target }, target, recorded: { en: PREVIEW, de: PREVIEW } },
        REQUESTER,
        `corr-${target}`,
      );
    try {
      const storeNow = (await store.replicas.clock()).getTime();
      // Stamped by the replica 10 minutes ahead: the store's now + 2 minutes, to within a second.
      const onTime = await open('on-time');
      expect(Math.abs(onTime.expiresAt.getTime() - (storeNow + PROMPT_MS))).toBeLessThan(1_000);
      const late = await open('late');
      expect(Math.abs(late.expiresAt.getTime() - (storeNow + PROMPT_MS))).toBeLessThan(1_000);
      // Checked by the replica 10 minutes behind, as its time passes: a second before the deadline the
      // Confirm is taken; a second after it, it is not.
      behind.advance(onTime.expiresAt.getTime() - 1_000 - behind.clock.now());
      expect(await behind.journal.claim(onTime, SPEC)).toBe('claimed');
      behind.advance(late.expiresAt.getTime() + 1_000 - behind.clock.now());
      expect(await behind.journal.claim(late, SPEC)).toBe('closed');
      // And the other way round: stamped behind, checked ahead.
      const back = await behind.journal.open(
        '/server rdns',
        SPEC,
        { parameters: { target: 'back' }, target: 'back', recorded: { en: PREVIEW, de: PREVIEW } },
        REQUESTER,
        'corr-back',
      );
      ahead.advance(back.expiresAt.getTime() - 1_000 - ahead.clock.now());
      expect(await ahead.journal.claim(back, SPEC)).toBe('claimed');
    } finally {
      ahead.clock.stop();
      behind.clock.stop();
    }
  });

  it('a step of ±10 minutes of the local clock moves neither the store clock nor an interaction’s age', async () => {
    const clock = await StoreClock.start(() => store.replicas.clock(), logger);
    try {
      const before = clock.now();
      for (const step of [+10 * MINUTE, -10 * MINUTE]) {
        vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + step });
        // An interaction Discord signed just now (its timestamp is the true time): its age stays small.
        const sentAt = (await store.replicas.clock()).getTime();
        expect(Math.abs(clock.now() - sentAt)).toBeLessThan(TOLERANCE_MS);
        expect(Math.abs(clock.now() - sentAt)).toBeLessThan(1_000);
        expect(Math.abs(clock.now() - before)).toBeLessThan(60_000);
        vi.useRealTimers();
      }
    } finally {
      clock.stop();
    }
  });
});
