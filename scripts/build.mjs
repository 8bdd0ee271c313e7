// The production build (`npm run build`): each entry point and everything it imports bundled by esbuild into
// dist/, so start-up reads, resolves and compiles a few files instead of ≈ 1,100 modules (see
// docs/bench/2026-11-23-footprint.md). Only better-sqlite3 (a native module) stays in node_modules, with pg's optional pg-native
// and pg-cloudflare, which HostOps never loads. Code loaded with `await import()` goes into chunks of its own
// (dist/chunks/) and is read only when first used: pg, for a postgres:// DATABASE_URL, is one such chunk
// (resolving its ≈ 30 files one by one took ≈ 6 ms of every PostgreSQL start).
//
// - Entry points keep their paths: dist/src/index.js (npm start), dist/src/console.js (npm run console),
//   dist/src/deploy-commands.js, dist/src/migrate-store.js.
// - Whitespace and syntax are minified, identifiers are not: the source text V8 keeps in the heap shrinks by
//   a third, stack traces still name every function and class. dist/**/*.js.map maps positions back to the
//   sources; run with NODE_OPTIONS=--enable-source-maps to have stack traces use it (it costs memory).
// - keepNames: a bundle renames classes (`_MessageManager`, `ChannelManager2`), and discord.js looks its
//   cache limits up by class name (`makeCache`): without it the message cache HostOps limits to 0 grows
//   without bound. Errors' `name`/`type` in the log stay right too.
// - No package is forced to one version: HostOps asks for the undici 6 discord.js and @discordjs/rest ask for,
//   so npm installs one copy (test/singleHttpStack.test.ts). Forcing undici 7 on discord.js broke every
//   message with a file (its multipart bodies fail on undici 7 with "action is not a function"); the
//   end-to-end suite runs this bundle, so such a break fails a test. A package installed twice in the same
//   version is bundled once.
// - `import { z } from 'zod'` is bundled as `import * as z from 'zod'` (the same binding), which lets esbuild
//   leave out the parts of zod HostOps does not use, its ~40 locales among them.
// Type errors are not checked here (esbuild strips types); `npm run typecheck` and `npm test` do that.
//
// Usage: node scripts/build.mjs [--outdir dir] [--metafile file.json]
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
// src/startBot.ts is what src/index.ts runs, as a module of its own: the end-to-end tests load it from this
// build (test/support/startTestBot.ts), so they run the very chunks `npm start` runs.
const ENTRIES = [
  'src/index.ts',
  'src/console.ts',
  'src/deploy-commands.ts',
  'src/migrate-store.ts',
  'src/startBot.ts',
];
const EXTERNAL = ['better-sqlite3', 'pg-native', 'pg-cloudflare'];
// The syntax esbuild may leave as it is: the oldest Node package.json's engines promises (each alternative
// `^major.minor.patch`), e.g. node22.16.
const [OLDEST_MAJOR, OLDEST_MINOR] = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  .engines.node.split('||')
  .map((range) => range.trim().replace(/^\^/, '').split('.').map(Number))
  .sort(([a, b], [c, d]) => a - c || b - d)[0];

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const outdir = option('--outdir') ?? join(ROOT, 'dist');
const metafileOut = option('--metafile');

/** Every installed package directory under root's node_modules (nested ones included), by name@version. */
function installedPackages(root) {
  const byKey = new Map();
  const visit = (dir) => {
    const modules = join(dir, 'node_modules');
    if (!existsSync(modules)) return;
    for (const name of readdirSync(modules)) {
      if (name.startsWith('.')) continue;
      const names = name.startsWith('@')
        ? readdirSync(join(modules, name)).map((scoped) => `${name}/${scoped}`)
        : [name];
      for (const packageName of names) {
        const packageDir = join(modules, packageName);
        if (!statSync(packageDir).isDirectory()) continue;
        try {
          const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
          const key = `${packageName}@${version}`;
          byKey.set(key, [...(byKey.get(key) ?? []), packageDir]);
        } catch {
          // Not a package (no or unreadable package.json).
        }
        visit(packageDir);
      }
    }
  };
  visit(root);
  return byKey;
}

/** Resolves imports of a nested copy of a package to the one copy of the same name and version. */
function dedupePackages() {
  const canonical = new Map();
  for (const dirs of installedPackages(ROOT).values()) {
    if (dirs.length < 2) continue;
    // The shallowest copy, so the choice does not depend on the order of resolution.
    const [first, ...rest] = dirs.sort((a, b) => a.length - b.length || a.localeCompare(b));
    for (const dir of rest) canonical.set(dir, first);
  }
  return {
    name: 'dedupe-packages',
    setup(esbuild) {
      esbuild.onResolve({ filter: /^[^./]/ }, async (resolving) => {
        if (resolving.pluginData?.deduped) return undefined;
        const result = await esbuild.resolve(resolving.path, {
          kind: resolving.kind,
          importer: resolving.importer,
          resolveDir: resolving.resolveDir,
          pluginData: { deduped: true },
        });
        if (result.errors.length > 0 || result.external) return result.errors.length > 0 ? undefined : result;
        for (const [dir, target] of canonical) {
          if (result.path.startsWith(dir + sep))
            return { ...result, path: target + result.path.slice(dir.length) };
        }
        return result;
      });
    },
  };
}

/** `import { z } from 'zod'` → `import * as z from 'zod'`: the same namespace, but one esbuild can shake. */
function zodNamespaceImport() {
  const pattern = /import\s*\{\s*z\s*\}\s*from\s*'zod';/g;
  return {
    name: 'zod-namespace-import',
    setup(esbuild) {
      const sources = new RegExp(`^${ROOT.replaceAll('\\', '\\\\')}[\\\\/](src|commands)[\\\\/].*\\.ts$`);
      esbuild.onLoad({ filter: sources }, (loading) => {
        const text = readFileSync(loading.path, 'utf8');
        if (!pattern.test(text)) return undefined;
        return { contents: text.replace(pattern, "import * as z from 'zod';"), loader: 'ts' };
      });
    },
  };
}

// The output folder is emptied first; never the project itself or a folder above it.
if (relative(resolve(outdir), ROOT) === '' || !relative(resolve(outdir), ROOT).startsWith('..')) {
  process.stderr.write(`refusing to empty ${outdir}: it holds the project\n`);
  process.exit(2);
}
rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: ENTRIES,
  outbase: '.',
  outdir,
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: `node${OLDEST_MAJOR}.${OLDEST_MINOR}`,
  external: EXTERNAL,
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  sourcemap: 'linked',
  legalComments: 'external',
  metafile: true,
  logLevel: 'warning',
  plugins: [dedupePackages(), zodNamespaceImport()],
  // Bundled CommonJS dependencies call require() for Node's built-in modules; an ES module has none.
  banner: {
    js: "import { createRequire as __hostopsCreateRequire } from 'node:module'; const require = __hostopsCreateRequire(import.meta.url);",
  },
});
if (metafileOut) writeFileSync(metafileOut, JSON.stringify(result.metafile));
const js = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
const bytes = js.reduce((sum, [, output]) => sum + output.bytes, 0);
// On stderr: `npm start` runs the build first, and the bot's stdout is its JSON log.
if (!args.includes('--quiet')) {
  process.stderr.write(
    `built ${ENTRIES.length} entry points into ${relative(ROOT, outdir) || '.'}: ${js.length} files, ${(bytes / 1024).toFixed(0)} KB of JavaScript, in ${(performance.now() - started).toFixed(0)} ms\n`,
  );
}
