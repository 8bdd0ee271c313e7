// What every SIGKILL cell checks of a change that ended: exactly one audit row and one audit-channel line,
// both naming its end.
import { expect } from 'vitest';
import { LEASE_MS, type Store } from '../../../src/store/index.js';
import type { FakeDiscord } from '../../support/FakeDiscord.js';
import { until } from '../../support/spawnBot.js';
import { TERMINAL } from './faultCases.js';

/** The sweep's period (ChangeSweeper). */
export const SWEEP_MS = 10_000;
/** Every final state of a change (the matrix's one list). */
export { TERMINAL } from './faultCases.js';

export async function expectAuditedOnce(
  store: Store,
  discord: FakeDiscord,
  channel: string,
  id: string,
  outcome: string,
): Promise<void> {
  const record = await store.changes.get(id);
  const lines = () =>
    discord
      .channelMessages(channel)
      .filter((m) => record !== undefined && m.content.includes(record.correlationId));
  // A line owed by a process that died after the settle is a sweep's, once due: a lease after the settle.
  await until(() => (lines().length > 0 ? true : undefined), `${id}: its audit line`, LEASE_MS + SWEEP_MS);
  const { rows } = await store.audit.query({}, { limit: 500, offset: 0 });
  const ends = rows.filter((row) => row.changeId === id && TERMINAL.has(row.outcome));
  expect(
    ends.map((r) => r.outcome),
    `${id}: audit rows`,
  ).toEqual([outcome]);
  expect(
    lines().map((m) => m.content.includes(`**${outcome}**`)),
    `${id}: audit lines`,
  ).toEqual([true]);
}
