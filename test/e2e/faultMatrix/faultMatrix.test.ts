// Issue 43's fault matrix, in one file so that its parts wait at once (their waits are the lease's and
// the sweep's, not work): every step × {one store error, the store unreachable > lease} on SQLite and on
// PostgreSQL (faultMatrix.ts, one bot per engine and class), and SIGKILL at the steps a process can be
// held at (killMatrix.ts on PostgreSQL, killMatrixSqlite.ts on SQLite), and Discord failing or a kill
// between an owed post's take and Discord accepting it (postFaults.ts, on both), and SIGKILL right after a
// prompt's expiry (killExpiry.ts, on both). Each part checks its table in docs/reliability.md.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createDatabase } from '../../support/startPostgres.js';
import { killExpirySuite } from './killExpiry.js';
import { killMatrixSuite } from './killMatrix.js';
import { killMatrixSqliteSuite } from './killMatrixSqlite.js';
import { matrixSuite } from './matrixSuite.js';
import { postFaultsSuite } from './postFaults.js';

matrixSuite(
  'sqlite',
  async (label) => `sqlite:${join(mkdtempSync(join(tmpdir(), 'hostops-faults-')), `${label}.db`)}`,
);
matrixSuite('postgres', (label) => createDatabase(inject('postgresUrl'), label));
killMatrixSuite();
killMatrixSqliteSuite();
postFaultsSuite(
  'sqlite',
  async () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'hostops-posts-')), 'posts.db')}`,
);
postFaultsSuite('postgres', () => createDatabase(inject('postgresUrl'), 'post_faults'));
killExpirySuite(
  'sqlite',
  async () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'hostops-expiry-')), 'expiry.db')}`,
);
killExpirySuite('postgres', () => createDatabase(inject('postgresUrl'), 'kill_expiry'));
