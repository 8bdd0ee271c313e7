// The fault matrix of issue 43 on SQLite (a file): see faultMatrix.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matrixSuite } from './matrixSuite.js';

matrixSuite(
  'sqlite',
  async (label) => `sqlite:${join(mkdtempSync(join(tmpdir(), 'hostops-faults-')), `${label}.db`)}`,
);
