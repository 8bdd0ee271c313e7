import type { ButtonInteraction, ChatInputCommandInteraction } from 'discord.js';
import type { ReplyBody } from '../replies/ReplyBody.js';
import { type Answers, ephemeral, type Invocation } from './Answers.js';
import type { ReadAnswer } from './CommandModule.js';
import { withAttachments } from './withAttachments.js';

/**
 * What an answer said was still under way, once it is done: `later` edits the answer to what it resolves
 * to; `followUp` is posted as a message of its own after it (ephemeral like the answer). Still this
 * interaction's work (a draining process waits for it); never throws.
 */
export async function answerLater(
  answers: Answers,
  invocation: Invocation,
  interaction: ChatInputCommandInteraction | ButtonInteraction,
  work: { later?: Promise<ReadAnswer> | undefined; followUp?: Promise<ReadAnswer | undefined> | undefined },
  options: { ephemeral?: boolean; shown?: (body: ReplyBody) => ReplyBody } = {},
): Promise<void> {
  const shown = options.shown ?? ((body: ReplyBody) => body);
  const { later, followUp } = work;
  if (later) {
    await answers.safely(invocation, async () => {
      const { later: _, followUp: __, data, ...updated } = await later;
      await interaction.editReply(withAttachments(shown(updated)));
      answers.data(interaction, data);
    });
  }
  if (followUp) {
    await answers.safely(invocation, async () => {
      const after = await followUp;
      if (!after) return;
      const { later: _, followUp: __, data, ...body } = after;
      const message = withAttachments(shown(body));
      await interaction.followUp(options.ephemeral ? ephemeral(message) : message);
      answers.data(interaction, data);
    });
  }
}
