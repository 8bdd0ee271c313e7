import { Resolver } from 'node:dns/promises';

/**
 * Forward-confirmed reverse DNS: a PTR record is trusted by mail servers only when the host name it names
 * resolves back to the same address. What a look-up of the host name's A records found:
 * - `match`: the address is among them;
 * - `mismatch`: it resolves, to other addresses only;
 * - `no_address`: the name does not exist or has no A record;
 * - `unchecked`: no answer within the budget, or the resolver failed.
 */
export type ForwardCheck =
  | { kind: 'match'; addresses: string[] }
  | { kind: 'mismatch'; addresses: string[] }
  | { kind: 'no_address' }
  | { kind: 'unchecked'; reason: 'timeout' | 'error'; detail: string };

export type ForwardCheckKind = ForwardCheck['kind'];

export interface ForwardCheckOptions {
  /** `host[:port]` or `[v6]:port` entries; empty: the system's resolvers. */
  servers: readonly string[];
  /** The whole look-up, retries included. */
  budgetMs: number;
}

const NO_ADDRESS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

/** Resolves `hostname`'s A records and says whether `ipv4` is among them; never throws. */
export async function checkForwardDns(
  hostname: string,
  ipv4: string,
  { servers, budgetMs }: ForwardCheckOptions,
): Promise<ForwardCheck> {
  // Two tries, each with half the budget: one lost UDP packet does not make the check fail.
  const resolver = new Resolver({ timeout: Math.max(1, Math.floor(budgetMs / 2)), tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  let timer: NodeJS.Timeout | undefined;
  const overBudget = new Promise<ForwardCheck>((resolve) => {
    timer = setTimeout(() => {
      resolver.cancel();
      resolve({ kind: 'unchecked', reason: 'timeout', detail: `no answer within ${budgetMs} ms` });
    }, budgetMs);
    timer.unref();
  });
  const lookup = resolver.resolve4(hostname).then(
    (addresses): ForwardCheck => {
      const sorted = [...new Set(addresses)].sort();
      return sorted.includes(ipv4)
        ? { kind: 'match', addresses: sorted }
        : { kind: 'mismatch', addresses: sorted };
    },
    (error: unknown): ForwardCheck => {
      const code = String((error as { code?: unknown }).code ?? '');
      if (NO_ADDRESS_CODES.has(code)) return { kind: 'no_address' };
      if (code === 'ETIMEOUT' || code === 'ECANCELLED') {
        return { kind: 'unchecked', reason: 'timeout', detail: `no answer within ${budgetMs} ms` };
      }
      return { kind: 'unchecked', reason: 'error', detail: code || 'resolver error' };
    },
  );
  try {
    return await Promise.race([lookup, overBudget]);
  } finally {
    clearTimeout(timer);
  }
}
