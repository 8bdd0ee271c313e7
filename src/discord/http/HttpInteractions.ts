import { type APIInteraction, type Client, Events, type Interaction } from 'discord.js';
import type { Logger } from '../../logger.js';
import { RESPONSE_DEADLINE_MS } from './endpointLimits.js';
import type { InitialResponses } from './InitialResponses.js';
import { type EndpointAnswer, json, type Reply } from './startInteractionsEndpoint.js';

export interface HttpInteractionsDeps {
  client: Client;
  /** The router's: resolves, once the interaction's work is done, with whether this process took it. */
  handle(interaction: Interaction): Promise<boolean>;
  responses: InitialResponses;
  logger: Logger;
  deadlineMs?: number;
}

/** discord.js's own handler of INTERACTION_CREATE (not in its typings): it builds the interaction object. */
interface Actions {
  actions: { InteractionCreate: { handle(data: unknown): void } };
}

/**
 * From a verified interaction payload to the HTTP response that carries its first answer. The payload
 * becomes the same discord.js interaction object the gateway would have given the router (built by
 * discord.js's INTERACTION_CREATE handler), the router handles it as it handles any, and its first
 * response is caught (InitialResponses) and written as the HTTP response.
 */
export class HttpInteractions {
  readonly #deps: HttpInteractionsDeps;
  #handling: Promise<boolean> | undefined;

  constructor(deps: HttpInteractionsDeps) {
    this.#deps = deps;
    // discord.js emits the interaction synchronously inside the handler's call (see #route).
    deps.client.on(Events.InteractionCreate, (interaction) => {
      this.#handling = deps.handle(interaction);
    });
  }

  /**
   * Calls `reply` exactly once: the first response, or an error status when there is none by the deadline,
   * counted from `arrivedAt` (performance.now() at the request's headers). A first response made after
   * that is refused where it is sent (the handler's reply, deferral or update throws), never sent through
   * REST instead: Discord may have given up on it, so a change confirmed by it is not sent.
   */
  answer(payload: APIInteraction, reply: Reply, arrivedAt = performance.now()): Promise<void> {
    const { responses, logger } = this.#deps;
    // A replay while the first delivery is still being answered here: the store's claim decides the rest.
    if (responses.isAwaited(payload.id))
      return reply(json(409, { error: 'interaction already being answered' }));
    return new Promise<void>((done) => {
      let timer: NodeJS.Timeout | undefined;
      let sent = false;
      let late = false;
      const send = (answer: EndpointAnswer): Promise<void> => {
        if (sent)
          return Promise.reject(
            new Error(
              late
                ? 'first response ready after the deadline (the request was answered 503): not sent'
                : 'this interaction already has its answer',
            ),
          );
        sent = true;
        clearTimeout(timer);
        const written = reply(answer);
        written.then(done, done);
        return written;
      };
      const stopAwaiting = responses.await(payload.id, payload.token, (initial) =>
        send({ status: 200, ...initial }),
      );
      const fallBack = (answer: EndpointAnswer) => {
        if (!sent) send(answer).catch(() => {});
      };
      const handling = this.#route(payload);
      if (handling === undefined) {
        stopAwaiting();
        fallBack(json(400, { error: 'not an interaction HostOps takes' }));
        return;
      }
      const deadlineMs = this.#deps.deadlineMs ?? RESPONSE_DEADLINE_MS;
      timer = setTimeout(
        () => {
          if (sent) return;
          late = true;
          logger.warn(
            { interaction: payload.id, deadlineMs },
            'no first response in time: the request is answered 503 and a later one is not sent',
          );
          fallBack(json(503, { error: 'no response in time' }));
        },
        Math.max(0, arrivedAt + deadlineMs - performance.now()),
      );
      // Until the handling ends its first response is caught here, in time or not (then refused).
      void handling.then((taken) => {
        stopAwaiting();
        fallBack(
          taken
            ? json(400, { error: 'HostOps has no response to this interaction' })
            : json(409, { error: 'interaction already handled' }),
        );
      });
    });
  }

  /** Builds the interaction and hands it to the router; undefined when discord.js makes nothing of it. */
  #route(payload: APIInteraction): Promise<boolean> | undefined {
    this.#handling = undefined;
    try {
      (this.#deps.client as unknown as Actions).actions.InteractionCreate.handle(payload);
    } catch (error) {
      this.#deps.logger.warn({ err: error, interaction: payload.id }, 'malformed interaction refused');
    }
    const handling = this.#handling;
    this.#handling = undefined;
    return handling;
  }
}
