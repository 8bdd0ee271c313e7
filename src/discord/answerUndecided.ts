import type { Interaction } from 'discord.js';
import { pickLocale } from '../i18n/locales.js';
import { translator } from '../i18n/Translator.js';
import { ephemeral } from './Answers.js';

/**
 * The answer to an interaction whose claim the store could not decide: not won, so nothing is done —
 * but the presser is told to try again rather than left with "the application did not respond".
 * (Another replica may have won it; its answer then goes in first and this one is refused by Discord.)
 */
export async function answerUndecided(interaction: Interaction): Promise<void> {
  if (interaction.isAutocomplete()) {
    await interaction.respond([]);
    return;
  }
  if (!interaction.isRepliable()) return;
  const t = translator(pickLocale(interaction.locale));
  await interaction.reply(ephemeral({ content: t('errors.store_undecided') }));
}
