// One Node version, one place: .node-version is what the container ships (the Dockerfile's NODE_VERSION) and
// what CI runs the whole suite on; package.json's engines promises that line from that version and one older
// line from its oldest version, which CI runs the runtime-facing set on (.ci/run, scripts/with-supported-node). These
// fail when the places drift apart, or when a dependency stops running on a version engines promises.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { isSupportedNode, SUPPORTED_NODE } from '../src/node/requireSupportedNode.js';

const ROOT = join(import.meta.dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

const shipped = read('.node-version').trim();
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
/** Each `||` alternative of engines, e.g. `^22.14.0`. */
const lines = pkg.engines.node.split('||').map((range) => range.trim());
const floors = lines.map((range) => semver.minVersion(range)?.version ?? range);
const oldest = semver.sort([...floors])[0] ?? '';

describe('the Node versions', () => {
  it('.node-version holds one exact version', () => {
    expect(shipped).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('the Dockerfile ships it: NODE_VERSION defaults to it and every stage is built on it', () => {
    const dockerfile = read('Dockerfile');
    expect(/^ARG NODE_VERSION=(\S+)$/m.exec(dockerfile)?.[1]).toBe(shipped);
    const froms = dockerfile.match(/^FROM .*$/gm) ?? [];
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) expect(from).toMatch(/^FROM node:\$\{NODE_VERSION\}-slim\b/);
  });

  it('engines promises exactly the lines CI runs, each from the version CI runs', () => {
    for (const range of lines) expect(range).toMatch(/^\^\d+\.\d+\.\d+$/);
    // The shipped line from the shipped version; any other line only from the oldest, which CI runs too.
    expect(floors).toContain(shipped);
    for (const floor of floors) expect([shipped, oldest]).toContain(floor);
    expect(semver.satisfies(shipped, pkg.engines.node)).toBe(true);
  });

  it('CI takes both versions from those places, naming none itself', () => {
    for (const file of ['.ci/run', '.ci/with-node', 'scripts/with-supported-node'])
      expect(read(file)).not.toMatch(/\b\d+\.\d+\.\d+\b/);
    const run = read('.ci/run');
    expect(run).toContain('.ci/with-node shipped npm');
    expect(run).toContain('.ci/with-node oldest npx vitest run');
    expect(read('.ci/with-node')).toContain('scripts/with-supported-node');
    const withNode = read('scripts/with-supported-node');
    expect(withNode).toContain('.node-version');
    expect(withNode).toContain('.engines.node');
  });

  it('the build targets the oldest version engines promises, naming none itself', () => {
    expect(read('scripts/build.mjs')).toContain('.engines.node');
    expect(read('scripts/build.mjs')).not.toMatch(/['`]node\d+/);
  });

  it('the type definitions are those of the oldest line, so code cannot lean on a newer API', () => {
    expect(semver.minVersion(pkg.devDependencies['@types/node'] ?? '')?.major).toBe(semver.major(oldest));
  });

  it('every locked package runs on both versions', () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (path === '' || range === undefined) return [];
      return [shipped, oldest]
        .filter((version) => !semver.satisfies(version, range))
        .map((version) => `${path.replace(/^node_modules\//, '')} (${range}) refuses ${version}`);
    });
    expect(refusing).toEqual([]);
  });

  it('the README and docs/node-versions.md name the supported lines as engines does', () => {
    for (const file of ['README.md', 'docs/node-versions.md'])
      for (const floor of floors) expect(read(file)).toContain(`Node ${floor}`);
  });

  it('nvm, fnm and Volta users get the shipped version: .nvmrc and package.json volta agree with .node-version', () => {
    expect(read('.nvmrc').trim()).toBe(shipped);
    expect((JSON.parse(read('package.json')) as { volta?: { node?: string } }).volta?.node).toBe(shipped);
  });

  it('npm ci refuses an unsupported Node with its own engine error (engine-strict)', () => {
    expect(read('.npmrc')).toMatch(/^engine-strict=true$/m);
  });

  it('the entry points check the running Node against engines, as semver reads it', () => {
    expect(SUPPORTED_NODE).toBe(pkg.engines.node);
    const candidates = [
      '20.20.2',
      '21.7.3',
      '22.15.1',
      '22.16.0',
      '22.20.5',
      '23.11.0',
      '24.20.9',
      '24.21.0',
    ];
    const more = ['24.30.1', '25.0.0', '26.1.0', oldest, shipped, `v${shipped}`];
    for (const version of [...candidates, ...more])
      expect([version, isSupportedNode(version)]).toEqual([
        version,
        semver.satisfies(version, pkg.engines.node),
      ]);
  });
});
