import type { ButtonInteraction, ChatInputCommandInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import {
  buttonInteraction,
  type ConsoleActor,
  chatInputInteraction,
  type Sent,
} from '../../src/console/ConsoleInteraction.js';

const actor = (locale: ConsoleActor['locale']): ConsoleActor => ({
  userId: '100000000000000099',
  username: 'console:tester',
  roleIds: [],
  guildId: '100000000000000001',
  channelId: '100000000000000002',
  locale,
});
const command = { commandName: 'help', group: null, subcommand: null, options: [], label: '/help' };

describe('console interactions', () => {
  it('carry the terminal’s language as a Discord client would send it', () => {
    const german = chatInputInteraction(actor('de'), () => {}, command) as ChatInputCommandInteraction;
    const english = chatInputInteraction(actor('en'), () => {}, command) as ChatInputCommandInteraction;
    expect(german.locale).toBe('de');
    expect(english.locale).toBe('en-US');
  });

  it('a button knows whether the message it is on was ephemeral', () => {
    const onPrompt = buttonInteraction(actor('en'), () => {}, 'hostops:confirm:1') as ButtonInteraction;
    const inChannel = buttonInteraction(actor('en'), () => {}, 'hostops:page:1', false) as ButtonInteraction;
    expect(onPrompt.message.flags.has('Ephemeral')).toBe(true);
    expect(inChannel.message.flags.has('Ephemeral')).toBe(false);
  });

  it('an update keeps the visibility of the message the button is on', async () => {
    const sent: Sent[] = [];
    const onPrompt = buttonInteraction(
      actor('en'),
      (s) => sent.push(s),
      'hostops:confirm:1',
    ) as ButtonInteraction;
    const onPage = buttonInteraction(
      actor('en'),
      (s) => sent.push(s),
      'hostops:watchlist:10',
      false,
    ) as ButtonInteraction;
    await onPrompt.update({ content: 'Sending…' });
    await onPage.update({ content: 'page 2' });
    expect(sent.map((s) => [s.kind, s.ephemeral])).toEqual([
      ['update', true],
      ['update', false],
    ]);
    expect([onPrompt.ephemeral, onPage.ephemeral]).toEqual([true, false]);
  });
});
