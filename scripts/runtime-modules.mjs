#!/usr/bin/env node
// The node_modules the image runs with: only what the bundle leaves outside itself (scripts/build.mjs'
// EXTERNAL that is installed: better-sqlite3), and of better-sqlite3 only what loads on this platform — its
// JavaScript and the one prebuilt binary lib/binding.js picks here, none of the other seven platforms', nor
// the SQLite sources it would compile from.
//
//   node scripts/runtime-modules.mjs <node_modules to read> <directory to write>
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [from, to] = process.argv.slice(2);
if (!from || !to) {
  process.stderr.write('usage: node scripts/runtime-modules.mjs <node_modules> <out dir>\n');
  process.exit(2);
}

/** The name lib/binding.js gives this platform's prebuild (glibc Linux, musl Linux, macOS, Windows). */
function prebuildTarget() {
  let maps = '';
  try {
    if (process.platform === 'linux') maps = readFileSync('/proc/self/maps', 'latin1');
  } catch {}
  const musl = /\/ld-musl-[^/\s]*\.so/.test(maps);
  return `${musl ? 'linuxmusl' : process.platform}-${process.arch}`;
}

const sizeOf = (path) =>
  statSync(path).isDirectory()
    ? readdirSync(path).reduce((sum, entry) => sum + sizeOf(join(path, entry)), 0)
    : statSync(path).size;

const source = join(from, 'better-sqlite3');
const target = join(to, 'better-sqlite3');
const prebuild = `${prebuildTarget()}.node`;
if (!existsSync(join(source, 'prebuilds', prebuild)) && !existsSync(join(source, 'build', 'Release'))) {
  process.stderr.write(
    `runtime-modules: better-sqlite3 has no binary for ${prebuild} (and none was compiled)\n`,
  );
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
mkdirSync(join(target, 'prebuilds'), { recursive: true });
for (const entry of ['package.json', 'LICENSE', 'lib'])
  cpSync(join(source, entry), join(target, entry), { recursive: true });
if (existsSync(join(source, 'prebuilds', prebuild)))
  cpSync(join(source, 'prebuilds', prebuild), join(target, 'prebuilds', prebuild));
if (existsSync(join(source, 'build', 'Release', 'better_sqlite3.node')))
  cpSync(
    join(source, 'build', 'Release', 'better_sqlite3.node'),
    join(target, 'build', 'Release', 'better_sqlite3.node'),
  );
process.stdout.write(
  `runtime-modules: better-sqlite3 (${prebuild}), ${(sizeOf(to) / 1e6).toFixed(1)} MB of ${(sizeOf(from) / 1e6).toFixed(1)} MB installed\n`,
);
