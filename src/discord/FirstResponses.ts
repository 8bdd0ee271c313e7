import type { Interaction } from 'discord.js';

/** Discord drops an interaction that has had no first response within this long. */
const DEADLINE_MS = 3_000;

/**
 * The interactions being handled that Discord has not yet had a first response to (a reply, a deferral,
 * an update or autocomplete choices): what work that can wait, a scrape of /metrics, gives way to.
 */
export class FirstResponses {
  /** Interaction → performance.now() at receipt. */
  readonly #waiting = new Map<Interaction, number>();

  received(interaction: Interaction): void {
    this.#waiting.set(interaction, performance.now());
  }

  /** Its handling ended, answered or not. */
  settled(interaction: Interaction): void {
    this.#waiting.delete(interaction);
  }

  /** True while an interaction still waits for its first response and can still get one in time. */
  pending(): boolean {
    const now = performance.now();
    for (const [interaction, receivedAt] of this.#waiting) {
      if (!answered(interaction) && now - receivedAt < DEADLINE_MS) return true;
      this.#waiting.delete(interaction);
    }
    return false;
  }
}

function answered(interaction: Interaction): boolean {
  if (interaction.isAutocomplete()) return interaction.responded;
  return interaction.isRepliable() ? interaction.deferred || interaction.replied : true;
}
