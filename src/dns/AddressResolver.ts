import { Resolver } from 'node:dns/promises';

/**
 * Where HostOps asks a host name's A records (the forward check of `/server rdns`): the system's resolvers
 * or DNS_SERVERS (`systemResolver`), or on the sandbox its made-up zone (src/sandbox/sandboxZone.ts). The
 * runtime picks one and hands it to the commands, so the check itself never knows which.
 */
export interface AddressResolver {
  /**
   * The name's IPv4 addresses. Rejects with an error whose `code` is a DNS one: `ENOTFOUND`/`ENODATA`
   * (no such name, no A record), `ETIMEOUT`, `ECANCELLED` once `signal` aborts, anything else a failure.
   */
  resolve4(hostname: string, options: { timeoutMs: number; signal: AbortSignal }): Promise<string[]>;
}

/** The system's resolvers, or `servers` (`host[:port]`, `[v6]:port`) when DNS_SERVERS names some. */
export function systemResolver(servers: readonly string[]): AddressResolver {
  return {
    resolve4(hostname, { timeoutMs, signal }) {
      // Two tries, each with half the time: one lost UDP packet does not make the check fail.
      const resolver = new Resolver({ timeout: Math.max(1, Math.floor(timeoutMs / 2)), tries: 2 });
      if (servers.length > 0) resolver.setServers([...servers]);
      const cancel = () => resolver.cancel();
      signal.addEventListener('abort', cancel, { once: true });
      return resolver.resolve4(hostname).finally(() => signal.removeEventListener('abort', cancel));
    },
  };
}
