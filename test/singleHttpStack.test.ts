// One HTTP stack (issue 41): HostOps' clients (hosting API, RDAP, domain files) and discord.js's REST use one
// copy of undici. discord.js 14 and @discordjs/rest 2 ask for undici 6; undici 7 (through an npm override)
// breaks their file uploads (undici 7's multipart encoder brand-checks its own FormData and sends nothing
// for the global one @discordjs/rest builds: "action is not a function"), so HostOps stays on undici 6.
// A second copy costs ≈ 0.7 MB of bundle and ≈ 1.5 MB of V8 heap once both are loaded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
}
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const undiciCopies = Object.entries(lock.packages).filter(([path]) =>
  /(^|\/)node_modules\/undici$/.test(path),
);

describe('one undici', () => {
  it('the lockfile installs exactly one undici', () => {
    expect(undiciCopies.map(([path]) => path)).toEqual(['node_modules/undici']);
  });

  it('that copy is in the range HostOps, discord.js and @discordjs/rest each ask for', () => {
    const version = undiciCopies[0]?.[1].version ?? '';
    const askers = ['', 'node_modules/discord.js', 'node_modules/@discordjs/rest'];
    for (const asker of askers) {
      const range =
        asker === '' ? lock.packages['']?.dependencies?.undici : lock.packages[asker]?.dependencies?.undici;
      expect(range, `${asker || 'hostops'} asks for undici`).toBeTypeOf('string');
      expect(semver.satisfies(version, range ?? ''), `${asker || 'hostops'}: ${range} vs ${version}`).toBe(
        true,
      );
    }
  });
});
