import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The code of the error a connection gets when its name resolves to no public address. */
export const NOT_PUBLIC = 'ERR_RDAP_NOT_PUBLIC';

/**
 * Whether `address` (an IP address as DNS or a URL gives it) is public unicast: not private (RFC 1918,
 * unique local), loopback, link-local (169.254.169.254 among them), CGNAT, multicast, broadcast,
 * unspecified, documentation, benchmarking or otherwise reserved — ipaddr.js keeps the IANA special-purpose
 * tables. An IPv4-mapped IPv6 address is judged as the IPv4 address it maps; other IPv6 ranges that embed
 * an IPv4 address (6to4, Teredo, NAT64) are not public unicast and are refused as they are.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!isIP(bare.replace(/%.*$/, ''))) return false;
  return ipaddr.process(bare).range() === 'unicast';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for net/tls connect (what undici's `connect.lookup` takes) that resolves as `resolve` does and
 * keeps only public addresses: a connection goes to the very address checked, so a name that resolves (or
 * is rebound) to a private, loopback or link-local address reaches nothing. With no public address left it
 * fails with NOT_PUBLIC, before any socket is opened.
 */
export function publicLookup(resolve: typeof dnsLookup = dnsLookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const kept = addresses.filter((a) => isPublicAddress(a.address));
      const first = kept[0];
      if (!first) {
        const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to no public address`);
        refused.code = NOT_PUBLIC;
        return callback(refused, []);
      }
      if (options.all) callback(null, kept);
      else callback(null, first.address, first.family);
    });
  };
}
