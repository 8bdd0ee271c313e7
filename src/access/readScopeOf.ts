import type { AccessGate } from './AccessGate.js';
import { EVERYTHING, type ReadScope } from './AccessPolicy.js';
import type { Gated } from './tiers.js';

/**
 * The invoker's read scope, for a handler whose answer names many resources: everything where no gate
 * decides (a context built without one reads as before grants).
 */
export async function readScopeOf(context: {
  gate?: AccessGate;
  interaction: Pick<Gated, 'member'> & { user: { id: string } };
}): Promise<ReadScope> {
  return context.gate ? context.gate.readScope(context.interaction) : EVERYTHING;
}
