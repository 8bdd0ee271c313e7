import { SANDBOX_ZONE } from './sandboxData.js';

/** A DNS error as node:dns reports one, so the forward check reads the zone's answers as a resolver's. */
const dnsError = (code: string, hostname: string) =>
  Object.assign(new Error(`${code} ${hostname}`), { code, hostname });

/** What the forward check asks (src/dns/AddressResolver.ts, a layer above: the runtime joins the two). */
export interface SandboxZone {
  resolve4(hostname: string, options: { signal: AbortSignal }): Promise<string[]>;
}

/**
 * The sandbox's resolver: answers from its made-up zone (SANDBOX_ZONE) in this process, so the forward
 * check on the sandbox reads nothing real and sends nothing anywhere.
 */
export function sandboxZone(zone: Readonly<Record<string, readonly string[]>> = SANDBOX_ZONE): SandboxZone {
  return {
    async resolve4(hostname, { signal }) {
      if (signal.aborted) throw dnsError('ECANCELLED', hostname);
      const addresses = zone[hostname.toLowerCase().replace(/\.$/, '')];
      if (!addresses) throw dnsError('ENOTFOUND', hostname);
      return [...addresses];
    },
  };
}
