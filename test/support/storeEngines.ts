// What the store tests share: both engines (a SQLite file, a database on the real PostgreSQL server), a
// fixed clock, change records as the journal makes them, and a raw connection to set a database back.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { afterAll, inject } from 'vitest';
import type { NewChange } from '../../src/store/index.js';
import { createDatabase } from './startPostgres.js';

const tmp = mkdtempSync(join(tmpdir(), 'hostops-store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let files = 0;
/** For `describe.each`: each engine and a fresh database of it, named after `label`. */
export const STORE_ENGINES = [
  { engine: 'sqlite', freshUrl: async (label: string) => `sqlite:${join(tmp, `${label}-${++files}.db`)}` },
  { engine: 'postgres', freshUrl: (label: string) => createDatabase(inject('postgresUrl'), label) },
] as const;

export const T0 = Date.parse('2030-01-01T12:00:00.000Z');
export const at = (offsetMs: number) => new Date(T0 + offsetMs);
export const MINUTE = 60_000;

export const newId = () => randomBytes(12).toString('base64url');

export function newChange(overrides: Partial<NewChange> = {}): NewChange {
  return {
    id: newId(),
    operation: 'registerDomain',
    command: '/domain register',
    target: 'example.com',
    parameters: { domain: 'example.com', ns: ['ns1.example.net', 'ns2.example.net'] },
    preview: { title: 'Register example.com', fields: [['ns1', 'ns1.example.net']] },
    requestedById: '100000000000000001',
    requestedByName: 'alice',
    locale: 'en',
    guildId: '300000000000000001',
    channelId: '400000000000000001',
    state: 'pending',
    correlationId: `corr-${newId()}`,
    createdAt: at(0),
    expiresAt: at(2 * MINUTE),
    ...overrides,
  };
}

/** A plain Kysely on the store's database, past the store's API: to set it back as an older release left it. */
export async function rawDatabase(url: string): Promise<Kysely<unknown>> {
  const { Kysely } = await import('kysely');
  return new Kysely<unknown>({
    dialect: url.startsWith('sqlite:')
      ? new SqliteDialect({
          database: new (await import('better-sqlite3')).default(url.slice('sqlite:'.length)),
        })
      : new PostgresDialect({ pool: new (await import('pg')).default.Pool({ connectionString: url }) }),
  });
}
