import type { Selectable } from 'kysely';
import { pickLocale } from '../i18n/locales.js';
import type { AuditEntry, ChangeRecord, NewAuditEntry, SentDnsSet } from './Store.js';
import type { AuditTable, ChangesTable } from './schema.js';

// Rows as stored and records as the store hands them out, one mapping each way.

export const toJson = (value: unknown) => JSON.stringify(value ?? null);
export const toJsonOrNull = (value: object | null | undefined) =>
  value == null ? null : JSON.stringify(value);
export const fromJsonOrNull = (text: string | null) =>
  text === null ? null : (JSON.parse(text) as Record<string, unknown>);

export function toChange(row: Selectable<ChangesTable>): ChangeRecord {
  return {
    id: row.id,
    operation: row.operation,
    command: row.command,
    target: row.target,
    parameters: JSON.parse(row.parameters) as Record<string, unknown>,
    preview: JSON.parse(row.preview) as unknown,
    requestedById: row.requested_by_id,
    requestedByName: row.requested_by_name,
    guildId: row.guild_id,
    channelId: row.channel_id,
    state: row.state,
    correlationId: row.correlation_id,
    result: fromJsonOrNull(row.result),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    expiresAt: new Date(row.expires_at),
    replicaId: row.replica_id,
    approval: fromJsonOrNull(row.approval),
    locale: pickLocale(row.locale),
  };
}

export function toAudit(row: Selectable<AuditTable>): AuditEntry {
  return {
    id: row.id,
    at: new Date(row.at),
    userId: row.user_id,
    userName: row.user_name,
    guildId: row.guild_id,
    channelId: row.channel_id,
    command: row.command,
    subcommand: row.subcommand,
    target: row.target,
    outcome: row.outcome,
    detail: row.detail,
    correlationId: row.correlation_id,
    durationMs: row.duration_ms,
    parameters: fromJsonOrNull(row.parameters),
    changeId: row.change_id,
    actedById: row.acted_by_id,
    actedByName: row.acted_by_name,
  };
}

/** Every column of a change as stored (importRows). */
export function changeRow(change: ChangeRecord) {
  return {
    id: change.id,
    operation: change.operation,
    command: change.command,
    target: change.target,
    parameters: JSON.stringify(change.parameters),
    preview: toJson(change.preview),
    requested_by_id: change.requestedById,
    requested_by_name: change.requestedByName,
    guild_id: change.guildId,
    channel_id: change.channelId,
    state: change.state,
    correlation_id: change.correlationId,
    result: toJsonOrNull(change.result),
    created_at: change.createdAt.getTime(),
    updated_at: change.updatedAt.getTime(),
    expires_at: change.expiresAt.getTime(),
    replica_id: change.replicaId,
    approval: toJsonOrNull(change.approval),
    locale: change.locale,
  };
}

/** Every column of an audit entry but its id, which the database assigns. */
export function auditRow(entry: NewAuditEntry) {
  return {
    at: entry.at.getTime(),
    user_id: entry.userId,
    user_name: entry.userName,
    guild_id: entry.guildId,
    channel_id: entry.channelId,
    command: entry.command,
    subcommand: entry.subcommand,
    target: entry.target,
    outcome: entry.outcome,
    detail: entry.detail,
    correlation_id: entry.correlationId,
    duration_ms: entry.durationMs,
    parameters: toJsonOrNull(entry.parameters),
    change_id: entry.changeId,
    acted_by_id: entry.actedById ?? null,
    acted_by_name: entry.actedByName ?? null,
  };
}

/**
 * The store's own clock in epoch milliseconds. Heartbeats are written and judged by it, so replicas whose
 * local clocks disagree still agree on whose lease ran out.
 */

export function dnsSetRow(set: SentDnsSet) {
  return {
    change_id: set.changeId,
    domain: set.domain,
    records: set.records,
    sent_by_id: set.sentById,
    sent_by_name: set.sentByName,
    sent_at: set.sentAt.getTime(),
    correlation_id: set.correlationId,
  };
}
