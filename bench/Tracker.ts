// When Discord (the fake) heard from the bot. All times are performance.now() in this process: the fake stamps
// `dispatchedAt` when it writes INTERACTION_CREATE to the gateway socket and `at` when a REST request arrives.
import type { DispatchedInteraction, FakeDiscord } from '../test/support/FakeDiscord.js';

/**
 * What the fake received per interaction, read incrementally from `discord.requests`:
 * the first callback (the acknowledgement), the first PATCH of `@original` and every follow-up.
 */
export class Tracker {
  readonly ack = new Map<string, { at: number; type: number }>();
  readonly original = new Map<string, number>();
  /** Tokens whose PATCH @original carried embeds (a result) rather than only text (an error message). */
  readonly originalWithEmbeds = new Set<string>();
  /**
   * The last PATCH @original per token and what it said: a read that waited for a connection edits its
   * deferral with a notice first, so its answer is the last edit, not the first.
   */
  readonly lastOriginal = new Map<string, { at: number; embeds: boolean; content: string }>();
  readonly followups = new Map<string, number[]>();
  readonly #discord: FakeDiscord;
  #cursor: number;

  constructor(discord: FakeDiscord) {
    this.#discord = discord;
    this.#cursor = discord.requests.length;
  }

  scan(): void {
    const requests = this.#discord.requests;
    for (; this.#cursor < requests.length; this.#cursor++) {
      const r = requests[this.#cursor];
      if (r === undefined) continue;
      const parts = r.path.split('/');
      if (parts[1] === 'interactions' && parts[4] === 'callback') {
        const id = parts[2] ?? '';
        if (!this.ack.has(id)) {
          const type = (r.body as { type?: unknown } | undefined)?.type;
          this.ack.set(id, { at: r.at, type: typeof type === 'number' ? type : -1 });
        }
      } else if (parts[1] === 'webhooks') {
        const token = parts[3] ?? '';
        if (r.method === 'PATCH' && parts[5] === '@original') {
          const body = r.body as { embeds?: unknown; content?: unknown } | undefined;
          const embeds = Array.isArray(body?.embeds) && body.embeds.length > 0;
          const content = typeof body?.content === 'string' ? body.content : '';
          this.lastOriginal.set(token, { at: r.at, embeds, content });
          if (!this.original.has(token)) {
            this.original.set(token, r.at);
            if (embeds) this.originalWithEmbeds.add(token);
          }
        } else if (r.method === 'POST' && parts.length === 4) {
          const list = this.followups.get(token) ?? [];
          list.push(r.at);
          this.followups.set(token, list);
        }
      }
    }
  }

  ackAt(i: DispatchedInteraction): number | undefined {
    return this.ack.get(i.id)?.at;
  }

  /** The answer with the result: PATCH @original after a defer, otherwise the reply callback itself. */
  finalAt(i: DispatchedInteraction): number | undefined {
    const ack = this.ack.get(i.id);
    if (ack === undefined) return undefined;
    return ack.type === 5 ? this.original.get(i.token) : ack.at;
  }
}
