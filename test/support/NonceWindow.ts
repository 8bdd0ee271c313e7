// Discord's enforce_nonce, as FakeDiscord plays it: "If true and nonce is present, it will be checked for
// uniqueness in the past few minutes. If another message was created by the same author with the same
// nonce, that message will be returned and no new message will be created." (Create Message.) Discord
// gives no figure for "a few minutes"; FakeDiscord's default is 2 minutes, the low end of that.
export const NONCE_WINDOW_MS = 2 * 60_000;

/** The messages created with a nonce, by author and nonce, for as long as Discord would dedupe them. */
export class NonceWindow {
  readonly #seen = new Map<string, { messageId: string; at: number }>();

  constructor(readonly windowMs = NONCE_WINDOW_MS) {}

  /** The message this author created with this nonce within the window, if any. */
  find(authorId: string, nonce: string, now = performance.now()): string | undefined {
    const seen = this.#seen.get(`${authorId}\u0000${nonce}`);
    return seen && now - seen.at <= this.windowMs ? seen.messageId : undefined;
  }

  remember(authorId: string, nonce: string, messageId: string, now = performance.now()): void {
    this.#seen.set(`${authorId}\u0000${nonce}`, { messageId, at: now });
  }
}
