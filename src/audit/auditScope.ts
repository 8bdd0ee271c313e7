import type { ReadScope } from '../access/AccessPolicy.js';
import { type Resource, resourceOf } from '../access/patterns.js';
import { resourcesOf } from '../access/resourcesOf.js';
import type { AuditEntry } from '../store/index.js';

/**
 * The resources an audit entry names: its change's parameters (the same names the gate reads) and every
 * word of its target (`shop.example`, `server 42 203.0.113.7`, a list of domains). Undefined when a word of
 * the target names no resource (`role:1…`, a music-bot user, an /audit search, a cut-off name): such an
 * entry is shown only to a reader of everything.
 */
export function auditResources(entry: Pick<AuditEntry, 'target' | 'parameters'>): Resource[] | undefined {
  const resources = resourcesOf(entry.parameters ?? {});
  const words = (entry.target ?? '').split(/\s+/).filter((word) => word !== '');
  for (let n = 0; n < words.length; n++) {
    const word = words[n] ?? '';
    const next = words[n + 1];
    const resource =
      word === 'server' && next !== undefined && /^\d{1,10}$/.test(next)
        ? resourceOf('server', Number(next))
        : (resourceOf('ip', word) ?? (word.includes('.') ? resourceOf('domain', word) : undefined));
    if (!resource) return undefined;
    if (resource.kind === 'server') n++;
    resources.push(resource);
  }
  return resources;
}

/**
 * Whether a reader of `scope` may see the entry: it names at least one resource and a grant of the reader
 * covers them as the gate would decide its command on them. Entries naming none (`/watch list`, `/help`,
 * `/access grant`) are a reader of everything's.
 */
export function auditEntryVisible(
  scope: ReadScope,
  entry: Pick<AuditEntry, 'target' | 'parameters'>,
): boolean {
  if (scope.everything) return true;
  const resources = auditResources(entry);
  return resources !== undefined && scope.coversAll(resources);
}
