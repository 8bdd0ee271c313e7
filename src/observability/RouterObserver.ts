import type { CommandOutcome } from '../audit/outcomes.js';
import type { PostKind } from '../store/index.js';

/** What the interaction router reports as it answers (Metrics is one): times, outcomes, claims. */
export interface RouterObserver {
  /** Time from receiving the interaction to Discord accepting our first response. */
  acknowledged(command: string, ms: number): void;
  /** A command reached its end state; ms counts from receipt (for changes: up to the outcome). */
  finished(command: string, outcome: CommandOutcome, ms: number): void;
  /** This replica claimed an interaction (won) or another replica already had (lost). */
  claimed?(won: boolean): void;
  /**
   * An answer's data (what its embeds are rendered from), or a change's, for the interaction that got it:
   * the console's `--json` prints it. It may hold what only that interaction's user may see.
   */
  answered?(interactionId: string, data: object): void;
  /** A post owed to Discord (an audit line, a sweep's notice) was given up after every attempt. */
  postAbandoned?(kind: PostKind): void;
}
