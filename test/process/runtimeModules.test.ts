// The image runs the bundle beside a node_modules that holds only what scripts/runtime-modules.mjs keeps
// (better-sqlite3, one platform's binary): the bundle must need nothing else. Laid out as the image lays
// it out, with the built bundle and package.json, the console answers a read from the sandbox (SQLite
// store, hosting client, rendering) and the bot's entry loads its whole code before it refuses a missing
// variable with 78.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { builtEntry } from '../support/built.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const app = mkdtempSync(join(tmpdir(), 'hostops-runtime-'));
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('the runtime node_modules of the image', () => {
  it('holds better-sqlite3 with one binary, and the bundle runs on it alone', async () => {
    const { stdout: said } = await run(process.execPath, [
      join(ROOT, 'scripts/runtime-modules.mjs'),
      join(ROOT, 'node_modules'),
      join(app, 'node_modules'),
    ]);
    expect(said).toMatch(/^runtime-modules: better-sqlite3 \(\w+-\w+\.node\)/);
    expect(readdirSync(join(app, 'node_modules'))).toEqual(['better-sqlite3']);
    expect(readdirSync(join(app, 'node_modules/better-sqlite3/prebuilds'))).toHaveLength(1);
    expect(existsSync(join(app, 'node_modules/better-sqlite3/deps'))).toBe(false);

    // The build's folder has the layout of dist/ (src/, chunks/).
    cpSync(dirname(dirname(builtEntry('src/console.ts'))), join(app, 'dist'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(app, 'package.json'));
    const env = { PATH: process.env.PATH ?? '', HOME: app, NO_COLOR: '1' };
    const { stdout } = await run(
      process.execPath,
      ['dist/src/console.js', '--json', '/domain info domain:shop.example'],
      { cwd: app, env },
    );
    expect(JSON.parse(stdout)).toMatchObject({ domain: 'shop.example', active: true });

    const bot = await run(process.execPath, ['dist/src/index.js'], { cwd: app, env }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(bot.code).toBe(78);
  }, 120_000);
});
