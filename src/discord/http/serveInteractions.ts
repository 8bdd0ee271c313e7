import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from 'discord.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { HealthState } from '../../observability/HealthState.js';
import type { Metrics } from '../../observability/Metrics.js';
import type { Store } from '../../store/index.js';
import type { Delivery } from '../Delivery.js';
import type { InteractionRouter } from '../InteractionRouter.js';
import { HttpInteractions } from './HttpInteractions.js';
import type { InitialResponses } from './InitialResponses.js';
import { StoreClock } from './StoreClock.js';
import { startInteractionsEndpoint } from './startInteractionsEndpoint.js';
import { signatureCheck } from './verifySignature.js';

export interface HttpDeliveryDeps {
  /** Never logged in: its REST client sends what the gateway path sends, minus the initial responses. */
  client: Client;
  /** The ones the client's REST client was made with (createDiscordClient's makeRequest). */
  responses: InitialResponses;
  router: InteractionRouter;
  store: Store;
  health: HealthState;
  metrics: Metrics;
  logger: Logger;
  config: Pick<Config, 'interactions' | 'discord'>;
}

/**
 * Interactions over HTTP: no gateway connection at all. Discord POSTs each one, signed, to
 * INTERACTIONS_PORT; the first response goes back as the HTTP response, everything after through REST.
 */
export async function serveInteractions(deps: HttpDeliveryDeps): Promise<Delivery> {
  const { client, health, logger, config } = deps;
  const { publicKey, host, port, unreadyMs } = config.interactions;
  if (publicKey === undefined) throw new Error('DISCORD_PUBLIC_KEY is required with INTERACTIONS_MODE=http');
  const checkSignature = signatureCheck(publicKey);
  // What login() would do for REST, without the gateway: channel messages are sent with the bot token.
  client.rest.setToken(config.discord.token);
  const clock = await StoreClock.start(() => deps.store.replicas.clock(), logger);
  const interactions = new HttpInteractions({
    client,
    handle: (interaction) => deps.router.handle(interaction),
    responses: deps.responses,
    logger,
  });
  const endpoint = await startInteractionsEndpoint({
    host,
    port,
    checkSignature,
    now: () => clock.now(),
    answer: (interaction, reply, arrivedAt) => interactions.answer(interaction, reply, arrivedAt),
    logger,
    onAnswered: (status) => deps.metrics.interactionRequest(status),
    onSignatureRefused: (reason) => deps.metrics.signatureRefused(reason),
  }).catch((error: unknown) => {
    clock.stop();
    throw error;
  });
  health.endpoint = 'ready';
  // When the shutdown's SHUTDOWN_GRACE_MS ends: closing the listener waits for nothing past it.
  let graceEndsAt = Number.POSITIVE_INFINITY;
  return {
    ready: Promise.resolve(),
    // Nothing outside this process can end its listener.
    fatal: new Promise<string>(() => {}),
    async stopAccepting(graceMs) {
      graceEndsAt = performance.now() + graceMs;
      health.endpoint = 'stopping';
      // Still answering, so what the load balancer sends before its health check notices is not lost.
      await sleep(Math.min(unreadyMs, graceMs));
      endpoint.stopAccepting();
      logger.info({ inFlight: endpoint.inFlight }, 'interactions endpoint stopped accepting');
    },
    async close() {
      await endpoint.close(Math.max(0, graceEndsAt - performance.now()));
      clock.stop();
      await client.destroy();
    },
  };
}
