import type { RESTOptions } from 'discord.js';

type MakeRequest = RESTOptions['makeRequest'];
type Init = Parameters<MakeRequest>[1];

/** An interaction's first response, as the body of the HTTP response to Discord's request. */
export interface InitialResponse {
  contentType: string;
  body: Buffer;
}

/** Hands the initial response to the request waiting for it; resolves once it is written, rejects if it cannot be. */
export type Deliver = (response: InitialResponse) => Promise<void>;

const CALLBACK_PATH = /\/interactions\/(\d+)\/([^/]+)\/callback$/;

/**
 * Over HTTP, Discord takes an interaction's first response (deferral, reply, update, modal, suggestions) as
 * the body of its own request's response, not through the callback endpoint. discord.js still builds and
 * sends that callback exactly as for the gateway; this catches it on its way out, by the interaction's id
 * and token, while the request waits, and every other call (edits, follow-ups, channel messages) goes on
 * to Discord's REST API as before.
 */
export class InitialResponses {
  readonly #waiting = new Map<string, { token: string; deliver: Deliver }>();

  /** Until the returned function is called or the callback comes, this interaction's callback goes to `deliver`. */
  await(id: string, token: string, deliver: Deliver): () => void {
    const entry = { token, deliver };
    this.#waiting.set(id, entry);
    return () => {
      if (this.#waiting.get(id) === entry) this.#waiting.delete(id);
    };
  }

  isAwaited(id: string): boolean {
    return this.#waiting.has(id);
  }

  /** REST's network call (`next`), with the awaited callbacks taken out. */
  makeRequest(next: MakeRequest): MakeRequest {
    return async (url, init) => {
      const match = CALLBACK_PATH.exec(new URL(url).pathname);
      const entry = match?.[1] === undefined ? undefined : this.#waiting.get(match[1]);
      if (entry === undefined || entry.token !== match?.[2]) return next(url, init);
      this.#waiting.delete(match[1] as string);
      await entry.deliver(await initialResponse(init));
      // What Discord answers a callback sent without ?with_response (HostOps never asks for one).
      return new Response(null, { status: 204 });
    };
  }
}

/** The callback's body as discord.js made it: JSON, or multipart when files go with it. */
async function initialResponse(init: Init): Promise<InitialResponse> {
  const { body } = init;
  if (typeof body === 'string') return { contentType: 'application/json', body: Buffer.from(body, 'utf8') };
  // FormData (files): encoded the way fetch would send it, boundary in the content type.
  const encoded = new Response(body as ConstructorParameters<typeof Response>[0]);
  return {
    contentType: encoded.headers.get('content-type') ?? 'application/octet-stream',
    body: Buffer.from(await encoded.arrayBuffer()),
  };
}
