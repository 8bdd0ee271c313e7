// The cases of issue 43's fault matrix: every step of a change's life, the store call that is the step
// (where a fault strikes), and what the change must end as. faultMatrix.ts runs them.
import { type Fault, type KnownChanges, transitionOf } from '../../support/FaultyStore.js';

export const TERMINAL = new Set(['done', 'failed', 'unknown', 'cancelled', 'expired', 'rejected']);

export type FaultClass = 'one store error' | 'store unreachable > lease';

export const STEPS = [
  'prompt stored',
  'claim at Confirm',
  'claim at Approve',
  'slot taken (claim landed, answer lost)',
  'DNS set stored',
  'recheck',
  'request written',
  'answer read (settle landed, answer lost)',
  'settle done',
  'settle failed',
  'settle unknown',
  'audit row',
  'notice posted',
  'prompt expired',
  'prompt expired (end landed, answer lost)',
] as const;
export type Step = (typeof STEPS)[number];

export interface MatrixRow {
  step: Step;
  fault: FaultClass;
  engine: 'sqlite' | 'postgres';
  /** The first change's final state (`none`: no record was made), and what the provider received. */
  ended: string;
  sent: number;
  /** The next change to the same domain. */
  next: string;
}

export interface Case {
  step: Step;
  /** `/domain register`, put up for approval; a DNS set otherwise (serial slot, recheck, remembered set). */
  register?: true;
  /** The call that is the step: where the fault strikes. */
  call: string;
  when: (domain: string) => NonNullable<Fault['when']>;
  /** `after`: the call lands and its answer is lost. */
  at?: 'before' | 'after';
  /** Armed once the prompt is shown (the prompt makes that call too, or the step is the Confirm). */
  afterPrompt?: true;
  /** Nobody presses: the prompt runs out (a bot whose prompts last CONFIRM_TIMEOUT_S=10). */
  expires?: true;
  /** What the provider answers this case's request. */
  reply?: 'refused' | 'dropped';
  /** The press is answered "try again", and the user presses again (once the store answers). */
  pressAgain?: true;
  /** Expected final state and requests at the provider. */
  ended: string;
  sent: number;
}

/** Every call that touches the change(s) of one target: what "the store unreachable" means to them. */
export function touches(domain: string) {
  return (args: readonly unknown[], known: KnownChanges): boolean =>
    args.some((arg) => {
      if (arg === domain) return true;
      if (typeof arg === 'string') return known.get(arg)?.target === domain;
      if (arg && typeof arg === 'object') {
        const entry = arg as { target?: unknown; changeId?: unknown };
        return (
          entry.target === domain ||
          (typeof entry.changeId === 'string' && known.get(entry.changeId)?.target === domain)
        );
      }
      return false;
    });
}

const inserting = (d: string) => (args: readonly unknown[]) => (args[0] as { target?: unknown }).target === d;

export const CASES: readonly Case[] = [
  { step: 'prompt stored', call: 'changes.insert', when: inserting, ended: 'none', sent: 0 },
  {
    step: 'claim at Confirm',
    call: 'changes.transition',
    when: (d) => transitionOf(d, 'pending', 'sending'),
    afterPrompt: true,
    pressAgain: true,
    ended: 'done',
    sent: 1,
  },
  {
    step: 'claim at Approve',
    register: true,
    call: 'changes.transition',
    when: (d) => transitionOf(d, 'awaiting_approval', 'sending'),
    pressAgain: true,
    ended: 'done',
    sent: 1,
  },
  {
    step: 'slot taken (claim landed, answer lost)',
    call: 'changes.transition',
    when: (d) => transitionOf(d, 'pending', 'sending'),
    at: 'after',
    afterPrompt: true,
    ended: 'failed',
    sent: 0,
  },
  {
    step: 'DNS set stored',
    // The set is written in the claim's transaction: the write fails, the claim with it.
    call: 'changes.transition',
    when: (d) => (args, known) =>
      transitionOf(d, 'pending', 'sending')(args, known) && Boolean((args[3] as { sends?: unknown }).sends),
    afterPrompt: true,
    pressAgain: true,
    ended: 'done',
    sent: 1,
  },
  {
    step: 'recheck',
    // The prompt read the latest set too: armed once it is shown, the next read is the recheck's.
    call: 'dnsSets.latest',
    when: (d) => (args) => args[0] === d,
    afterPrompt: true,
    ended: 'failed',
    sent: 0,
  },
  {
    step: 'request written',
    call: 'changes.transition',
    when: (d) => transitionOf(d, 'sending', 'sending'),
    ended: 'failed',
    sent: 0,
  },
  {
    step: 'answer read (settle landed, answer lost)',
    call: 'changes.transition',
    when: (d) => transitionOf(d, 'sending', 'done'),
    at: 'after',
    ended: 'done',
    sent: 1,
  },
  {
    step: 'settle done',
    call: 'changes.transition',
    when: (d) => transitionOf(d, 'sending', 'done'),
    ended: 'done',
    sent: 1,
  },
  {
    step: 'settle failed',
    reply: 'refused',
    call: 'changes.transition',
    when: (d) => transitionOf(d, 'sending', 'failed'),
    ended: 'failed',
    sent: 1,
  },
  {
    step: 'settle unknown',
    reply: 'dropped',
    call: 'changes.transition',
    when: (d) => transitionOf(d, 'sending', 'unknown'),
    ended: 'unknown',
    sent: 1,
  },
  {
    // Written in the settle's transaction (one write): its fault is the settle's, and both land together.
    step: 'audit row',
    call: 'changes.transition',
    when: (d) => (args, known) =>
      transitionOf(d, 'sending', 'done')(args, known) && Boolean((args[4] as { audit?: unknown }).audit),
    ended: 'done',
    sent: 1,
  },
  {
    // The audit-channel line is taken (one conditional write) before it is posted: the settling
    // replica's take fails, so the line is the sweep's, once it is due (a lease after the settle).
    step: 'notice posted',
    call: 'audit.takePosts',
    when: (d) => (args, known) => {
      const which = args[0] as { changeId?: string };
      return Boolean(which.changeId && known.get(which.changeId)?.target === d);
    },
    ended: 'done',
    sent: 1,
  },
  {
    // The expiry's end, its audit row and its owed line are one write: it fails, and the sweep expires the
    // prompt (still overdue) once the store answers.
    step: 'prompt expired',
    expires: true,
    call: 'changes.transition',
    when: (d) => transitionOf(d, 'pending', 'expired'),
    ended: 'expired',
    sent: 0,
  },
  {
    // The expiry lands, its answer is lost: no longer overdue, so only what was written with it (its row,
    // its owed line, posted by the sweep once due) can tell it.
    step: 'prompt expired (end landed, answer lost)',
    expires: true,
    call: 'changes.transition',
    when: (d) => transitionOf(d, 'pending', 'expired'),
    at: 'after',
    ended: 'expired',
    sent: 0,
  },
];
