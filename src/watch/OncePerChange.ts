/**
 * What is computed from the whole watch list (the gauges' series, the calendar), kept until the watch data
 * changes: `stamp` reads the store's change stamp of the watch data (one row, the same on every replica),
 * and `compute` runs once per stamp, however many ask meanwhile. A failed computation is not kept.
 */
export class OncePerChange<T> {
  #current: { stamp: string; value: Promise<T> } | undefined;

  constructor(
    private readonly stamp: () => Promise<string>,
    private readonly compute: () => Promise<T>,
  ) {}

  /** The value for the current watch data, and the stamp it was computed for. */
  async get(): Promise<{ stamp: string; value: T }> {
    const stamp = await this.stamp();
    let current = this.#current;
    if (current?.stamp !== stamp) {
      // The data is read after the stamp: what is kept is at least as new as the stamp says.
      const value = this.compute();
      current = { stamp, value };
      this.#current = current;
      value.catch(() => {
        if (this.#current === current) this.#current = undefined;
      });
    }
    return { stamp, value: await current.value };
  }
}
