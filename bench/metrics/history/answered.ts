// Reading a bot's final answer to one interaction off the fake Discord, and what an /audit answer says.
import type { DispatchedInteraction } from '../../../test/support/FakeDiscord.js';
import { waitUntil } from '../../dispatch.js';
import type { Stage } from '../../stage.js';
import type { Tracker } from '../../Tracker.js';

export interface Answer {
  ms: number;
  /** The final message: PATCH @original after a defer, else the callback's data. */
  body:
    | {
        content?: string;
        embeds?: { description?: string; footer?: { text?: string } }[];
        components?: { components?: { custom_id?: string; label?: string }[] }[];
      }
    | undefined;
  files: { name: string; size: number; text: string }[];
}

/** Dispatch → the final answer (PATCH @original after a defer, else the callback), and what it said. */
export async function answered(
  stage: Stage,
  tracker: Tracker,
  i: DispatchedInteraction,
  timeoutMs = 30_000,
): Promise<Answer> {
  await waitUntil(
    () => {
      tracker.scan();
      return tracker.finalAt(i) !== undefined;
    },
    timeoutMs,
    `the answer to ${JSON.stringify(i.payload.data).slice(0, 120)}`,
  );
  const ack = tracker.ack.get(i.id);
  const requests = stage.discord.requestsFor(i);
  const final =
    ack?.type === 5
      ? requests.find((r) => r.method === 'PATCH' && r.path.endsWith('/messages/@original'))
      : requests.find((r) => r.path.endsWith('/callback'));
  const raw = final?.body as { data?: Answer['body'] } & Answer['body'];
  return {
    ms: (tracker.finalAt(i) as number) - i.dispatchedAt,
    body: ack?.type === 5 ? raw : raw?.data,
    files: (final?.files ?? []).map((f) => ({ name: f.name, size: f.size, text: f.text })),
  };
}

/** The count in an /audit footer ("… of 545", "… of more than 10,000"), 0 without one. */
export const footerCount = (answer: Answer): { total: number; capped: boolean } => {
  const text = answer.body?.embeds?.[0]?.footer?.text ?? '';
  const match = /(?:of|von) (more than |mehr als )?([\d,.\s]+)$/.exec(text);
  return match?.[2] === undefined
    ? { total: 0, capped: false }
    : { total: Number(match[2].replace(/\D/g, '')), capped: match[1] !== undefined };
};
export const footerTotal = (answer: Answer): number => footerCount(answer).total;

/** The custom id of an /audit answer's paging button, by its label. */
export const pagingId = (answer: Answer, label: string): string | undefined =>
  answer.body?.components?.[0]?.components?.find((b) => b.label?.includes(label))?.custom_id;
