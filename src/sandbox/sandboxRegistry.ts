import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import type { SandboxState } from './sandboxData.js';

/** The registry's made-up disagreements with the sandbox's provider, so the console shows each finding. */
const REGISTRY_SAYS: Record<string, { shiftDays?: number; status?: string[] }> = {
  // A renewal charged by the provider and not passed on: the registry still has the old date.
  'shop.example': { shiftDays: -20 },
  'moved-away.example': { status: ['active', 'pending transfer'] },
  'old-brand.example': { status: ['redemption period'] },
  // No transfer lock at the registry (every other domain has one).
  'parked.example': { status: ['active'] },
};

/** TLDs the sandbox's registry answers for; `.test` has none ("the registry offers no RDAP"). */
const TLDS = ['example', 'com', 'net', 'org'];

export interface SandboxRegistry {
  /** RDAP_BOOTSTRAP_URL for the sandbox: plain http on loopback, so its servers may be http too. */
  bootstrapUrl: string;
  close(): Promise<void>;
}

/**
 * A made-up RDAP registry (RFC 9083 answers, an RFC 9224 bootstrap file) on 127.0.0.1 for the sandbox:
 * what the sandbox's provider says, with a few disagreements, and nothing sent anywhere else.
 */
export async function startSandboxRegistry(state: SandboxState): Promise<SandboxRegistry> {
  let base = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
    const reply = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/rdap+json',
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    };
    if (path === '/dns.json') {
      return reply(200, {
        version: '1.0',
        publication: new Date().toISOString(),
        description: 'HostOps sandbox: a made-up registry',
        services: [[TLDS, [`${base}/rdap/`]]],
      });
    }
    const match = /^\/rdap\/domain\/([^/]+)$/.exec(path);
    const name = match ? decodeURIComponent(match[1] ?? '').toLowerCase() : '';
    const domain = state.domains.get(name);
    if (!domain) return reply(404, { errorCode: 404, title: 'not found' });
    const says = REGISTRY_SAYS[name] ?? {};
    const expiry = DateTime.fromISO(domain.expiryDate, { zone: state.timeZone })
      .plus({ days: says.shiftDays ?? 0 })
      .set({ hour: 12 })
      .toUTC()
      .toISO();
    return reply(200, {
      objectClassName: 'domain',
      ldhName: name,
      status: says.status ?? ['client transfer prohibited'],
      events: [{ eventAction: 'expiration', eventDate: expiry }],
      nameservers: domain.nameservers.map((ldhName) => ({ objectClassName: 'nameserver', ldhName })),
      secureDNS: { delegationSigned: false },
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closing: Promise<void> | undefined;
  return {
    bootstrapUrl: `${base}/dns.json`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
