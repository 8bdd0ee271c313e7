import type { AddressResolver } from './AddressResolver.js';

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
  /** Who is asked: the system's resolvers, DNS_SERVERS, or the sandbox's made-up zone. */
  resolver: AddressResolver;
  /** The whole look-up, retries included. */
  budgetMs: number;
}

const NO_ADDRESS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

/** Resolves `hostname`'s A records and says whether `ipv4` is among them; never throws. */
export async function checkForwardDns(
  hostname: string,
  ipv4: string,
  { resolver, budgetMs }: ForwardCheckOptions,
): Promise<ForwardCheck> {
  const cancel = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const overBudget = new Promise<ForwardCheck>((resolve) => {
    timer = setTimeout(() => {
      cancel.abort();
      resolve({ kind: 'unchecked', reason: 'timeout', detail: `no answer within ${budgetMs} ms` });
    }, budgetMs);
    timer.unref();
  });
  const lookup = resolver.resolve4(hostname, { timeoutMs: budgetMs, signal: cancel.signal }).then(
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
