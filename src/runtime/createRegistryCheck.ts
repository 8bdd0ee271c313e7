import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { RdapClient, type RdapRequestEvent } from '../rdap/RdapClient.js';
import { RegistryCheck } from '../rdap/RegistryCheck.js';
import type { Store } from '../store/index.js';

/**
 * The registry check as configured, or undefined with RDAP_CHECK=off (then nothing is ever sent to a
 * registry). On the sandbox, its made-up registry stands in for IANA's bootstrap file.
 */
export function createRegistryCheck(options: {
  config: Pick<Config, 'rdap' | 'hosting'>;
  store: Store;
  logger: Logger;
  /** The sandbox's registry, when HOSTING_API_URL=sandbox. */
  sandboxBootstrapUrl?: string | undefined;
  onRequest?: (event: RdapRequestEvent) => void;
  now?: () => Date;
}): RegistryCheck | undefined {
  const { config, store, logger } = options;
  if (!config.rdap.enabled) return undefined;
  const bootstrapUrl = options.sandboxBootstrapUrl ?? config.rdap.bootstrapUrl;
  const client = new RdapClient({
    maxPerServer: config.rdap.maxPerServer,
    // The sandbox's registry is our own, in this process: no registry's limits to respect there.
    minIntervalMs: options.sandboxBootstrapUrl
      ? Math.min(config.rdap.minIntervalMs, 50)
      : config.rdap.minIntervalMs,
    allowHttp: new URL(bootstrapUrl).protocol === 'http:',
    maxPauseMs: config.rdap.maxPauseMs,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });
  return new RegistryCheck(
    store,
    client,
    bootstrapUrl,
    config.hosting.timeZone,
    logger.child({ component: 'rdap' }),
    options.now,
  );
}
