// The structure figures of issue 42, held: no circle of imports (type-only ones included) across src/ and
// commands/, no import that runs back up the layers below, and no file in src/, commands/, bench/ or
// scripts/ over 400 lines (the i18n catalogues excepted: one text per entry, English beside German).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { circles, filesUnder, importGraph, importsOf, ROOT } from './sourceFiles.js';

/**
 * The architecture, lowest first: a file may import its own area and any area of a LOWER layer, never one
 * of its own layer or above. An area is a folder of src/ (`store`), a file directly in src/ (`config.ts`),
 * or `commands`. A new folder is placed here before it can land: the test names any area it does not know.
 */
const LAYERS: readonly (readonly string[])[] = [
  // Plain helpers every part uses.
  [
    'text',
    'i18n',
    'logger.ts',
    'correlationId.ts',
    'generatePassword.ts',
    'TurnBudget.ts',
    'gzipParts.ts',
    'IdleCollector.ts',
  ],
  // The running Node's version, checked before anything else loads (it reads only package.json's engines).
  ['node'],
  // The provider's API client (knows nothing of Discord, the store or the config), the process guards.
  ['hosting', 'processGuards.ts'],
  ['validation', 'store'],
  // The registry's word (RDAP, issue 44): its client, answers and findings, which the watch, the replies
  // and the domain commands read; wired up with the configuration by the runtime.
  ['rdap'],
  ['sandbox', 'replies'],
  // The value types of the environment, and the one schema made of them (the sandbox's defaults below both).
  ['configValues.ts'],
  ['config.ts'],
  // Who may do what (issue 50): tiers, grants and their patterns, the one decision and its gate.
  ['access'],
  // What HostOps does, each on its own: none of them imports another.
  ['audit', 'changes', 'dns', 'watch'],
  // Metrics, health and the calendar over what is below; the Discord face reports into it.
  ['observability'],
  ['discord'],
  ['commands'],
  // One runtime for the gateway, HTTP and console faces.
  ['runtime'],
  ['console', 'startBot.ts', 'runDeployCommands.ts', 'runMigrateStore.ts'],
  // Entry points: the Node check first, then the rest.
  ['main.ts', 'console.ts', 'deploy-commands.ts', 'migrate-store.ts'],
  ['index.ts'],
];

const MAX_LINES = 400;

const sources = filesUnder(['src', 'commands'], ['.ts']);
const graph = importGraph(sources);

/** `src/store/Store.ts` → `store`, `src/config.ts` → `config.ts`, `commands/…` → `commands`. */
function areaOf(file: string): string {
  const [top, area] = file.split('/');
  return top === 'commands' ? 'commands' : (area as string);
}

const rank = new Map(LAYERS.flatMap((areas, layer) => areas.map((area) => [area, layer] as const)));

describe('imports', () => {
  it('reads every file of src/ and commands/', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources).toContain('src/discord/CommandModule.ts');
    expect(sources).toContain('commands/index.ts');
  });

  it('every area of src/ and commands/ has its place in LAYERS, and every place an area', () => {
    const areas = new Set(sources.map(areaOf));
    expect([...areas].filter((area) => !rank.has(area))).toEqual([]);
    expect([...rank.keys()].filter((area) => !areas.has(area))).toEqual([]);
  });

  it('form no circle, type-only imports included', () => {
    expect(circles(graph).map((files) => files.join(' → '))).toEqual([]);
  });

  it('never run back up the layers (nor across to another area of the same layer)', () => {
    const found: string[] = [];
    for (const [from, targets] of graph) {
      const fromArea = areaOf(from);
      for (const to of targets) {
        // package.json's engines, read by the Node check: the manifest, not a layer.
        if (!/^(src|commands)\//.test(to)) continue;
        const toArea = areaOf(to);
        if (toArea === fromArea) continue;
        if ((rank.get(toArea) ?? Number.POSITIVE_INFINITY) >= (rank.get(fromArea) ?? -1))
          found.push(`${from} → ${to}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('the check itself finds circles and reads type-only, re-exported and dynamic imports', () => {
    const made = new Map([
      ['src/store/a.ts', ['src/store/b.ts']],
      ['src/store/b.ts', ['src/store/c.ts']],
      ['src/store/c.ts', ['src/store/a.ts']],
      ['src/store/d.ts', ['src/store/d.ts']],
      ['src/store/e.ts', []],
    ]);
    expect(circles(made)).toEqual([
      ['src/store/a.ts', 'src/store/b.ts', 'src/store/c.ts'],
      ['src/store/d.ts'],
    ]);
    const source = [
      "import type { CommandModule } from './CommandModule.js';",
      "export type { ClickAction } from './changes/ClickGuard.js';",
      "type Config = import('../config.js').Config;",
      "const store = await import('../store/index.js');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(importsOf('src/discord/made.ts', source).sort()).toEqual([
      'src/config.ts',
      'src/discord/CommandModule.ts',
      'src/discord/changes/ClickGuard.ts',
      'src/store/index.ts',
    ]);
  });
});

describe('file sizes', () => {
  const files = filesUnder(
    ['src', 'commands', 'bench', 'scripts'],
    ['.ts', '.mts', '.js', '.mjs', '.cjs'],
  ).filter((file) => !file.startsWith('src/i18n/messages/'));

  it(`no file in src/, commands/, bench/ or scripts/ is over ${MAX_LINES} lines`, () => {
    expect(files).toContain('bench/run.ts');
    expect(files).toContain('scripts/build.mjs');
    const lines = (file: string) => readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length;
    const over = files.filter((file) => lines(file) > MAX_LINES);
    expect(over.map((file) => `${file}: ${lines(file)} lines`)).toEqual([]);
  });
});
