// The fault matrix of issue 43 on PostgreSQL (the real server of the test run): see faultMatrix.ts.
import { inject } from 'vitest';
import { createDatabase } from '../../support/startPostgres.js';
import { matrixSuite } from './matrixSuite.js';

matrixSuite('postgres', (label) => createDatabase(inject('postgresUrl'), label));
