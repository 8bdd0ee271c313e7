import type { CommandModule } from '../discord/CommandModule.js';
import { nestedOptions, valueOptions } from './resolvePath.js';

/** Tab completion: command names, then subcommand names, then option names (`name:`). */
export function complete(
  commands: readonly CommandModule[],
  line: string,
  extra: readonly string[] = [],
): [string[], string] {
  const words = line.split(/\s+/);
  const last = words.at(-1) ?? '';
  if (words.length <= 1) {
    const all = [...commands.map((c) => `/${c.definition.name}`), ...extra, 'exit'];
    const hits = all.filter((c) => c.startsWith(last));
    return [hits.length > 0 ? hits : all, last];
  }
  const definition = commands.find((c) => c.definition.name === words[0]?.replace(/^\//, ''))?.definition;
  if (!definition) return [[], last];
  let options = definition.options as Parameters<typeof nestedOptions>[0];
  let index = 1;
  for (;;) {
    const nested = nestedOptions(options);
    if (nested.length === 0) break;
    if (index === words.length - 1) {
      const hits = nested.map((o) => o.name).filter((name) => name.startsWith(last));
      return [hits.map((h) => `${h} `), last];
    }
    const found = nested.find((o) => o.name === words[index]);
    if (!found) return [[], last];
    options = found.options;
    index++;
  }
  if (last.includes(':')) return [[], last];
  const used = new Set(words.slice(index, -1).map((w) => w.split(':')[0]));
  const names = valueOptions(options)
    .map((o) => `${o.name}:`)
    .filter((name) => !used.has(name.slice(0, -1)) && name.startsWith(last));
  return [names, last];
}
