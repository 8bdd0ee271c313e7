import type { ChangeState } from '../store/index.js';

/** A read's or an answer's outcome (what the metrics count). */
export type CommandOutcome = 'ok' | 'refused' | 'invalid' | 'failed' | 'cancelled' | 'expired';

/** Every end a command can have, as the audit trail records it and `/audit outcome` offers it. */
export const AUDIT_OUTCOMES = [
  'ok',
  'refused',
  'invalid',
  'failed',
  'cancelled',
  'expired',
  'done',
  'unknown',
  'rejected',
] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

// The list is exactly a command outcome or a change's final state: a new state without a name here
// (or a name no command can end in) fails the typecheck.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const endsAgree: Same<
  AuditOutcome,
  CommandOutcome | Exclude<ChangeState, 'pending' | 'sending' | 'awaiting_approval'>
> = true;
void endsAgree;

/** How an outcome is marked wherever the audit trail is shown (/audit, the audit channel). */
export const OUTCOME_MARK: Record<AuditOutcome, string> = {
  ok: '✅',
  done: '✅',
  refused: '⛔',
  invalid: '⚠️',
  failed: '❌',
  cancelled: '✖️',
  expired: '⌛',
  unknown: '❓',
  rejected: '🚫',
};

/** The mark of a stored entry's outcome (a string from the database). */
export function outcomeMark(outcome: string): string {
  return OUTCOME_MARK[outcome as AuditOutcome] ?? '•';
}
