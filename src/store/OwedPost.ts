import type { AuditEntry } from './auditRecords.js';

/**
 * What an audit row owes Discord until Discord has accepted it: its line in the audit channel, or — a
 * change the sweep ended — the notice in the change's own channel (the audit row's channel).
 */
export const POST_KINDS = ['line', 'notice'] as const;
export type PostKind = (typeof POST_KINDS)[number];

/** An owed post as taken: the audit row it renders from, and how many takes it has had (this one too). */
export interface OwedPost {
  kind: PostKind;
  attempts: number;
  entry: AuditEntry;
}

/** Which owed posts to take: the line of one change's end (never taken yet), or those due, by the store's clock. */
export type PostsToTake = { changeId: string; outcome: string } | { due: number };
