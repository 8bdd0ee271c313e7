import type { ChangeState } from '../../src/store/index.js';

// Every state, checked by the compiler: a record in a state missing here would escape a test's checks.
const EVERY_STATE = {
  pending: true,
  sending: true,
  done: true,
  failed: true,
  unknown: true,
  cancelled: true,
  expired: true,
  awaiting_approval: true,
  rejected: true,
} as const satisfies Record<ChangeState, true>;

/** Every state a change record can be in: `store.changes.listByState(ALL_STATES)` reads them all. */
export const ALL_STATES = Object.keys(EVERY_STATE) as ChangeState[];
