// Just enough of the Chrome DevTools Protocol to force a GC and read the heap of a child started with
// --inspect, so memory can be measured without touching product code.
import { WebSocket } from 'ws';

export class Cdp {
  readonly #ws: WebSocket;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly #listeners = new Map<string, (params: unknown) => void>();
  #nextId = 1;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as {
        id?: number;
        method?: string;
        params?: unknown;
        result?: unknown;
        error?: { message: string };
      };
      if (message.id === undefined) {
        if (message.method !== undefined) this.#listeners.get(message.method)?.(message.params);
        return;
      }
      const waiter = this.#pending.get(message.id);
      if (waiter === undefined) return;
      this.#pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
    ws.on('close', () => {
      for (const waiter of this.#pending.values()) waiter.reject(new Error('DevTools connection closed'));
      this.#pending.clear();
    });
  }

  static connect(url: string): Promise<Cdp> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false });
      ws.once('open', () => resolve(new Cdp(ws)));
      ws.once('error', reject);
    });
  }

  send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: (v) => resolve(v as T), reject });
      this.#ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Heap used after forced full GCs (twice: the first can leave weakly held objects for the second). */
  async heapUsedAfterGc(): Promise<number> {
    await this.send('HeapProfiler.collectGarbage');
    await this.send('HeapProfiler.collectGarbage');
    const usage = await this.send<{ usedSize: number; totalSize: number }>('Runtime.getHeapUsage');
    return usage.usedSize;
  }

  /** Evaluates an expression in the child's main context and returns its JSON value. */
  async evaluate<T = unknown>(expression: string): Promise<T> {
    const result = await this.send<{ result: { value?: unknown }; exceptionDetails?: { text: string } }>(
      'Runtime.evaluate',
      { expression, returnByValue: true, awaitPromise: true },
    );
    if (result.exceptionDetails) throw new Error(`evaluate failed: ${result.exceptionDetails.text}`);
    return result.result.value as T;
  }

  /** A full heap snapshot (the .heapsnapshot JSON DevTools would save). */
  async heapSnapshot(): Promise<string> {
    const chunks: string[] = [];
    this.#listeners.set('HeapProfiler.addHeapSnapshotChunk', (params) => {
      chunks.push((params as { chunk: string }).chunk);
    });
    try {
      await this.send('HeapProfiler.enable');
      await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    } finally {
      this.#listeners.delete('HeapProfiler.addHeapSnapshotChunk');
    }
    return chunks.join('');
  }

  close(): void {
    this.#ws.close();
  }
}

interface HeapSnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** How many objects with each of these constructor names a heap snapshot holds. */
export function countObjects(snapshotJson: string, names: readonly string[]): Map<string, number> {
  const snapshot = JSON.parse(snapshotJson) as HeapSnapshotJson;
  const fields = snapshot.snapshot.meta.node_fields;
  const typeIndex = fields.indexOf('type');
  const nameIndex = fields.indexOf('name');
  const objectType = snapshot.snapshot.meta.node_types[0].indexOf('object');
  const wanted = new Set(names);
  const counts = new Map<string, number>(names.map((n) => [n, 0]));
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    if (snapshot.nodes[i + typeIndex] !== objectType) continue;
    const name = snapshot.strings[snapshot.nodes[i + nameIndex] ?? -1];
    if (name !== undefined && wanted.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}
