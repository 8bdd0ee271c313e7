import { type Resource, type ResourceKind, resourceOf } from './patterns.js';

/**
 * Where a command's resources are among its values: the same names in its options and in its change's
 * parameters (`/server rdns`' option `id` is its parameter `serverId`).
 */
const RESOURCE_VALUES: Readonly<Record<string, ResourceKind>> = {
  domain: 'domain',
  ip: 'ip',
  serverId: 'server',
};

/** The resources named by a command's options or a change's parameters. */
export function resourcesOf(values: Readonly<Record<string, unknown>>): Resource[] {
  const resources: Resource[] = [];
  for (const [name, kind] of Object.entries(RESOURCE_VALUES)) {
    const value = values[name];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    // A value no pattern can match is a resource nobody below `*` holds: refused unless a grant is on `*`.
    resources.push(resourceOf(kind, value) ?? { kind: 'domain', ascii: `invalid:${String(value)}` });
  }
  return resources;
}

/** A slash command's option values, under the names its change parameters carry. */
export function optionValues(
  label: string,
  get: (name: string) => string | number | boolean | undefined,
): Record<string, unknown> {
  return {
    domain: get('domain'),
    ip: get('ip'),
    serverId: label.startsWith('/server ') ? get('id') : undefined,
  };
}

/** The kinds of resource a subcommand's options name (what /help says where it may run), by optionValues. */
export function resourceKindsOf(label: string, optionNames: readonly string[]): Set<ResourceKind> {
  const values = optionValues(label, (name) => (optionNames.includes(name) ? 'x' : undefined));
  return new Set(
    Object.entries(RESOURCE_VALUES)
      .filter(([name]) => values[name] !== undefined)
      .map(([, kind]) => kind),
  );
}
