// A fault-injecting wrapper around the real store (either engine): chosen calls throw, before they
// reach the database or after it answered (the write landed, its answer was lost), once or for a while.
// Only the store is wrapped: the flow above it — the journal, the sender, the sweep, the audit trail —
// is the shipped one, running on the real database.
import type { Store } from '../../src/store/index.js';

/** `changes.transition`, `audit.insert`, …: a store group and one of its calls. */
export type StoreCall = string;

export interface Fault {
  call: StoreCall;
  /** Which calls of it: by their arguments and what the wrapper knows of the changes it saw inserted. */
  when?: (args: readonly unknown[], known: KnownChanges) => boolean;
  /** `before`: the call never reaches the store; `after`: it lands, and its answer is lost. */
  at?: 'before' | 'after';
  /** How many matching calls fail (default 1) … */
  times?: number;
  /** … or every matching call until this instant (performance.now()): the store unreachable meanwhile. */
  untilMs?: number;
  /**
   * The store unreachable from the step on: the first matching call starts an outage of `ms`, during
   * which every call that `touches` fails (the first one at `at`, the rest before they reach the store).
   */
  outage?: { ms: number; touches: (args: readonly unknown[], known: KnownChanges) => boolean };
  /** Instead of failing: the call waits this long first (a slow store, a lock), then goes ahead. */
  delayMs?: number;
  /** How many calls it failed so far. */
  hits: number;
}

/** Change ids → what the change is about, from the inserts the wrapper saw. */
export type KnownChanges = Map<string, { target: string | null; command: string }>;

export class StoreFault extends Error {
  override readonly name = 'StoreFault';
  constructor(call: StoreCall, at: 'before' | 'after') {
    super(`injected store fault: ${call} (${at})`);
  }
}

export class FaultPlan {
  readonly faults: Fault[] = [];
  readonly known: KnownChanges = new Map();

  add(fault: Omit<Fault, 'hits'>): Fault {
    const added = { ...fault, hits: 0 };
    this.faults.push(added);
    return added;
  }

  /** Whether every fault was met, and every outage is over. */
  over(): boolean {
    const now = performance.now();
    return this.faults.every((f) => f.hits > 0 && (f.untilMs === undefined || now >= f.untilMs));
  }

  /** The fault this call meets, if any (and counts it). */
  take(call: StoreCall, args: readonly unknown[]): Fault | undefined {
    const now = performance.now();
    for (const fault of this.faults) {
      if (!fault.outage) continue;
      if (fault.untilMs !== undefined) {
        if (now < fault.untilMs && fault.outage.touches(args, this.known)) {
          fault.hits++;
          return { ...fault, at: 'before' };
        }
        continue;
      }
      if (fault.call !== call || (fault.when && !fault.when(args, this.known))) continue;
      fault.untilMs = now + fault.outage.ms;
      fault.hits++;
      return fault;
    }
    for (const fault of this.faults) {
      if (fault.outage) continue;
      if (fault.call !== call) continue;
      const open =
        fault.untilMs === undefined ? fault.hits < (fault.times ?? 1) : performance.now() < fault.untilMs;
      if (!open) continue;
      if (fault.when && !fault.when(args, this.known)) continue;
      fault.hits++;
      return fault;
    }
    return undefined;
  }
}

const GROUPS = [
  'changes',
  'dnsSets',
  'watch',
  'replicas',
  'settings',
  'forms',
  'audit',
  'claims',
  'grants',
] as const;

export function faultyStore(inner: Store, plan: FaultPlan): Store {
  const wrapGroup = (group: (typeof GROUPS)[number]) => {
    const target = inner[group] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const name of Object.keys(target)) {
      const call = `${group}.${name}`;
      wrapped[name] = async (...args: unknown[]) => {
        if (call === 'changes.insert') {
          const change = args[0] as { id: string; target: string | null; command: string };
          plan.known.set(change.id, { target: change.target, command: change.command });
        }
        const fault = plan.take(call, args);
        if (fault?.delayMs !== undefined) {
          await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
          return (target[name] as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        }
        if (fault?.at !== 'after' && fault) throw new StoreFault(call, 'before');
        const result = await (target[name] as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (fault) throw new StoreFault(call, 'after');
        return result;
      };
    }
    return wrapped;
  };
  const store: Record<string, unknown> = {
    engine: inner.engine,
    importRows: inner.importRows.bind(inner),
    close: inner.close.bind(inner),
  };
  for (const group of GROUPS) store[group] = wrapGroup(group);
  return store as unknown as Store;
}

/** A predicate on `changes.transition(id, from, to, …)` for the changes of one target. */
export function transitionOf(
  target: string,
  from: string,
  to: string,
): (args: readonly unknown[], known: KnownChanges) => boolean {
  return (args, known) => {
    const [id, fromArg, toArg] = args as [string, string | readonly string[], string];
    const froms = typeof fromArg === 'string' ? [fromArg] : fromArg;
    return known.get(id)?.target === target && froms.includes(from) && toArg === to;
  };
}
