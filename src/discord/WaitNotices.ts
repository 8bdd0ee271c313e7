import type { WaitWatcher } from '../hosting/singleFlight.js';

export interface NoticeTiming {
  /** How long a read waits before its answer says so ("longer than a moment"). */
  afterMs: number;
  /** Least time between two notices of one read. */
  everyMs: number;
  /** Most notices edited per tick, whatever the number of reads waiting. */
  perTick: number;
  tickMs: number;
}

// discord.js holds webhook edits to its global 50 requests/s: ten notices a second leave the rest to answers.
const TIMING: NoticeTiming = { afterMs: 2_000, everyMs: 5_000, perTick: 5, tickMs: 500 };

/** One read's notice: the calls it waits on, and what its deferred answer last said. */
export class WaitNotice implements WaitWatcher {
  readonly #calls = new Set<{ ahead(): number | undefined }>();
  readonly #show: (ahead: number) => Promise<unknown>;
  readonly #onClose: () => void;
  #waitingSince: number | undefined;
  #shownAhead: number | undefined;
  #lastShownAt = Number.NEGATIVE_INFINITY;
  #showing: Promise<unknown> | undefined;
  #closed = false;

  constructor(show: (ahead: number) => Promise<unknown>, onClose: () => void) {
    this.#show = show;
    this.#onClose = onClose;
  }

  watch(call: { ahead(): number | undefined }): () => void {
    this.#calls.add(call);
    return () => this.#calls.delete(call);
  }

  /** Whether the answer said it was waiting: the answer that follows replaces what it said. */
  get shown(): boolean {
    return this.#shownAhead !== undefined;
  }

  get lastShownAt(): number {
    return this.#lastShownAt;
  }

  /**
   * Requests ahead while every call of the read waits for a connection (the fewest of them); undefined
   * while any of them is with the provider, or none is under way.
   */
  #ahead(): number | undefined {
    let least: number | undefined;
    for (const call of this.#calls) {
      const ahead = call.ahead();
      if (ahead === undefined) return undefined;
      least = Math.min(least ?? ahead, ahead);
    }
    return least;
  }

  /** The number to show now, if the notice is due: waiting a while, not shown lately, and changed. */
  due(now: number, timing: NoticeTiming): number | undefined {
    if (this.#closed || this.#showing) return undefined;
    const ahead = this.#ahead();
    if (ahead === undefined) {
      this.#waitingSince = undefined;
      return undefined;
    }
    this.#waitingSince ??= now;
    if (now - this.#waitingSince < timing.afterMs || now - this.#lastShownAt < timing.everyMs)
      return undefined;
    return ahead === this.#shownAhead ? undefined : ahead;
  }

  show(ahead: number, now: number): void {
    this.#shownAhead = ahead;
    this.#lastShownAt = now;
    this.#showing = this.#show(ahead)
      .catch(() => {})
      .finally(() => {
        this.#showing = undefined;
      });
  }

  /** No notice after this; resolves once one under way has landed, so the answer always comes after it. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#onClose();
    await this.#showing;
  }
}

/**
 * The reads waiting for a connection to the provider, and what their deferred answers say meanwhile
 * ("Waiting for the provider — 37 requests ahead"). One timer for them all, running only while a read is
 * open; the reads shown longest ago go first when more are due than a tick allows.
 */
export class WaitNotices {
  readonly #open = new Set<WaitNotice>();
  readonly #timing: NoticeTiming;
  #timer: NodeJS.Timeout | undefined;

  constructor(timing: NoticeTiming = TIMING) {
    this.#timing = timing;
  }

  /** A read's notice; `show` edits its deferred answer with how many requests are ahead. */
  open(show: (ahead: number) => Promise<unknown>): WaitNotice {
    const notice = new WaitNotice(show, () => this.#open.delete(notice));
    this.#open.add(notice);
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#tick(), this.#timing.tickMs);
      this.#timer.unref();
    }
    return notice;
  }

  #tick(): void {
    if (this.#open.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    const now = performance.now();
    const due: { notice: WaitNotice; ahead: number }[] = [];
    for (const notice of this.#open) {
      const ahead = notice.due(now, this.#timing);
      if (ahead !== undefined) due.push({ notice, ahead });
    }
    due.sort((a, b) => a.notice.lastShownAt - b.notice.lastShownAt);
    for (const { notice, ahead } of due.slice(0, this.#timing.perTick)) notice.show(ahead, now);
  }
}
