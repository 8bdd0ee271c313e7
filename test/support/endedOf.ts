import type { Ended, EndState } from '../../src/changes/ChangeEnds.js';
import type { ChangeRecord } from '../../src/store/index.js';

/** A change's end as its audit row (ChangeEnds writes it with the end), owing Discord nothing. */
export function endedOf(record: ChangeRecord, outcome: EndState, detail: string | null = null): Ended {
  return {
    entry: {
      at: new Date(),
      userId: record.requestedById,
      userName: record.requestedByName,
      guildId: null,
      channelId: null,
      command: 'domain',
      subcommand: 'dns',
      target: record.target,
      outcome,
      detail,
      correlationId: record.correlationId,
      durationMs: null,
      parameters: null,
      changeId: record.id,
    },
    posts: [],
  };
}
