// Kysely's view of the tables (every migration). Columns are snake_case as stored; times are epoch
// milliseconds and JSON is text, on both engines.
import type { Generated } from 'kysely';
import type { ChangeState, ReplicaRole } from './Store.js';

export interface ChangesTable {
  id: string;
  operation: string;
  command: string;
  target: string | null;
  parameters: string;
  preview: string;
  requested_by_id: string;
  requested_by_name: string;
  guild_id: string | null;
  channel_id: string | null;
  state: ChangeState;
  correlation_id: string;
  result: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
  replica_id: string | null;
  approval: string | null;
  locale: string | null;
  /** While `sending`, unique: see migration 0016. */
  serial_key: string | null;
}

export interface AuditTable {
  id: Generated<number>;
  at: number;
  user_id: string;
  user_name: string;
  guild_id: string | null;
  channel_id: string | null;
  command: string;
  subcommand: string;
  target: string | null;
  outcome: string;
  detail: string | null;
  correlation_id: string;
  duration_ms: number | null;
  parameters: string | null;
  change_id: string | null;
  acted_by_id: string | null;
  acted_by_name: string | null;
  /** Unused since migration 0020 (owed_posts), always null. */
  announce_due_at: number | null;
}

/** When a domain was last re-read at its registry on an operator's demand (migration 0023). */
export interface RegistryReasksTable {
  domain: string;
  /** ms since the epoch */
  asked_at: number;
}

/** What an audit row owes Discord until it accepts it (migration 0020). */
export interface OwedPostsTable {
  audit_id: number;
  kind: string;
  /** Store clock: takeable from then on. */
  due_at: number;
  /** How many times it was taken. */
  attempts: number;
}

export interface InteractionClaimsTable {
  interaction_id: string;
  replica_id: string;
  claimed_at: number;
}

export interface JobRunsTable {
  job: string;
  slot: string;
  replica_id: string;
  claimed_at: number;
}

export interface ReplicasTable {
  replica_id: string;
  host: string;
  pid: number;
  started_at: number;
  heartbeat_at: number;
  role: Generated<ReplicaRole>;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface FormsTable {
  id: string;
  owner_id: string;
  command: string;
  state: string;
  correlation_id: string;
  expires_at: number;
}

export interface WatchedDomainsTable {
  domain: string;
  unicode: string;
  added_by_id: string;
  added_at: number;
  checked_at: number | null;
  status: Generated<string>;
  failures: Generated<number>;
  expiry_date: string | null;
  active: number | null;
  expired: number | null;
  transferred_away: number | null;
}

export interface WatchAlertsTable {
  domain: string;
  alert_key: string;
  sent_at: number;
}

export interface DnsSetsTable {
  change_id: string;
  domain: string;
  records: string;
  sent_by_id: string;
  sent_by_name: string;
  sent_at: number;
  correlation_id: string;
}

export interface RegistryAnswersTable {
  domain: string;
  read_at: number;
  outcome: string;
  server: string | null;
  expires_at: string | null;
  statuses: string | null;
  nameservers: string | null;
  delegation_signed: number | null;
  flags: string;
  watched: number;
  version: number;
}

export interface AccessGrantsTable {
  id: string;
  subject_kind: string;
  subject_id: string;
  what: string;
  patterns: string;
  until_at: number | null;
  created_by: string;
  created_at: number;
  request_id: string | null;
}

export interface AccessGenerationTable {
  id: number;
  generation: number;
}

export interface Database {
  access_grants: AccessGrantsTable;
  access_generation: AccessGenerationTable;
  registry_answers: RegistryAnswersTable;
  settings: SettingsTable;
  forms: FormsTable;
  dns_sets: DnsSetsTable;
  watched_domains: WatchedDomainsTable;
  watch_alerts: WatchAlertsTable;
  replicas: ReplicasTable;
  changes: ChangesTable;
  audit: AuditTable;
  owed_posts: OwedPostsTable;
  registry_reasks: RegistryReasksTable;
  interaction_claims: InteractionClaimsTable;
  job_runs: JobRunsTable;
}

export type Engine = 'sqlite' | 'postgres';
