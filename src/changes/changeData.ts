import type { ChangeRecord } from '../store/index.js';
import type { JournalledChange } from './ChangeJournal.js';
import { masked } from './masked.js';

/**
 * A change as data (the console's `--json`): the record's id, command, target and parameters (every
 * secret masked), how it stands, and what the provider's answer left in the record. `private` is what only
 * whoever confirmed sees (a generated password): it is never stored or logged, and only the answer to that
 * one person carries it.
 */
export type ChangeData = {
  change: string;
  /** `server rdns`, as /audit names commands. */
  command: string;
  target: string | null;
  /** pending (the prompt is open), done, unknown, failed, cancelled. */
  outcome: 'pending' | 'done' | 'unknown' | 'failed' | 'cancelled';
  parameters: Record<string, unknown>;
  result?: Record<string, unknown>;
  private?: Record<string, unknown>;
};

export function changeData(
  record: ChangeRecord,
  spec: JournalledChange,
  outcome: ChangeData['outcome'],
  extra: { result?: Record<string, unknown> | null; private?: Record<string, unknown> | undefined } = {},
): ChangeData {
  return {
    change: record.id,
    command: record.command.replace(/^\//, ''),
    target: record.target,
    outcome,
    parameters: masked(spec, record.parameters),
    ...(extra.result ? { result: extra.result } : {}),
    ...(extra.private ? { private: extra.private } : {}),
  };
}
