import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n/Translator.js';
import {
  arr,
  CallbackType,
  callbackOf,
  deferredAnswer,
  dig,
  embedsOf,
  ephemeralReply,
  fieldValue,
  isEphemeral,
  type Json,
  rec,
  str,
  textOf,
} from '../support/e2eHelpers.js';
import type { DispatchedInteraction, InteractionOptions } from '../support/FakeDiscord.js';
import { ROLES, startTestBot, type TestBot } from '../support/startTestBot.js';

/**
 * The invoker's client language picks the words of what only they see; BOT_LOCALE picks the words of
 * what the channel reads. Driven through the real discord.js client and the fake Discord, whose
 * interactions carry `locale` as Discord's do.
 */

const de = translator('de');
const en = translator('en');

const rdns: InteractionOptions = {
  commandName: 'server',
  subcommand: 'rdns',
  options: { id: 42, ip: '203.0.113.7', hostname: 'host.example.com' },
};
const info: InteractionOptions = {
  commandName: 'domain',
  subcommand: 'info',
  options: { domain: 'example.com' },
};

interface GermanPrompt {
  embed: Json;
  confirmId: string;
  cancelId: string;
  messageId: string;
}

/** The ephemeral prompt of a change, its buttons found by their German labels. */
async function germanPrompt(t: TestBot, i: DispatchedInteraction): Promise<GermanPrompt> {
  const cb = await callbackOf(t, i);
  expect(cb.type).toBe(CallbackType.reply);
  expect(isEphemeral(cb.data)).toBe(true);
  const buttons = arr(dig(cb.data, 'components', 0, 'components')).map((b) => rec(b));
  expect(buttons.map((b) => b.label)).toEqual(['Bestätigen', 'Abbrechen']);
  const message = t.discord.originalMessage(i);
  if (!message) throw new Error('the fake knows no message behind the prompt');
  return {
    embed: embedsOf(cb.data)[0] ?? {},
    confirmId: str(buttons[0]?.custom_id),
    cancelId: str(buttons[1]?.custom_id),
    messageId: message.id,
  };
}

describe('a German invoker, channel language English (BOT_LOCALE unset)', () => {
  let t: TestBot;
  beforeAll(async () => {
    t = await startTestBot();
  });
  afterAll(async () => {
    await t?.stop();
  });
  beforeEach(() => {
    t.api.reset();
  });

  it('is refused in German, and nothing is sent', async () => {
    const text = await ephemeralReply(t, t.command({ ...rdns, roles: [ROLES.viewer], locale: 'de' }));
    expect(text).toMatch(
      /^`\/server rdns` erfordert die Stufe \*\*operator\*\*: eine dieser Rollen: <@&\d+>/,
    );
    expect(text).not.toMatch(/needs|tier/);
    expect(t.api.requests).toHaveLength(0);
  });

  it('gets a validation error in German, naming the option, and nothing is sent', async () => {
    const i = t.command({ ...info, options: { domain: 'exa_mple.com' }, locale: 'de' });
    const text = await ephemeralReply(t, i);
    expect(text).toMatch(/^`domain`: .+\. Erwartet: .+\.$/s);
    expect(text).not.toContain('Expected');
    expect(t.api.requests).toHaveLength(0);
  });

  it('confirms a change on a German prompt: private outcome German, public record English', async () => {
    const i = t.command({ ...rdns, locale: 'de' });
    const prompt = await germanPrompt(t, i);
    expect(prompt.embed.title).toBe('Reverse-DNS setzen');
    expect(fieldValue(prompt.embed, 'Vorher prüfen')).toBe('ja');
    expect(str(prompt.embed.description)).toContain('Es wird nichts gesendet, bis du **Bestätigen**');

    const click = t.discord.dispatchComponent({
      customId: prompt.confirmId,
      message: { id: prompt.messageId },
      roles: [ROLES.operator],
      locale: 'de',
    });
    const update = await callbackOf(t, click);
    expect(update.type).toBe(CallbackType.update);
    expect(JSON.stringify(update.data)).toContain(de('changes.prompt.sending'));
    const privateEdit = rec((await t.nth(click, 1)).body);
    expect(embedsOf(privateEdit)[0]?.title).toBe('Reverse-DNS gesetzt');
    const publicRecord = rec((await t.nth(click, 2)).body);
    expect(isEphemeral(publicRecord)).toBe(false);
    expect(textOf(publicRecord)).toMatch(/^🛠️ <@\d+> set the reverse DNS of `203\.0\.113\.7` \(server 42\)/);
    expect(t.api.requests).toHaveLength(1);
  });

  it('cancels in German', async () => {
    const prompt = await germanPrompt(t, t.command({ ...rdns, locale: 'de' }));
    const click = t.discord.dispatchComponent({
      customId: prompt.cancelId,
      message: { id: prompt.messageId },
      roles: [ROLES.operator],
      locale: 'de',
    });
    const cb = await callbackOf(t, click);
    expect(JSON.stringify(cb.data)).toContain('Abgebrochen');
    expect(t.api.requests).toHaveLength(0);
  });

  it('gets a read answered in the channel in the channel language, English', async () => {
    const { body } = await deferredAnswer(t, t.command({ ...info, locale: 'de' }));
    const embed = embedsOf(body)[0] ?? {};
    expect(fieldValue(embed, en('domain.info.expires'))).toMatch(/^<t:\d+:D> \(in [\d,]+ days\)$/);
  });

  it('gets /help, which only they see, in German', async () => {
    const text = await ephemeralReply(t, t.command({ commandName: 'help', locale: 'de' }));
    expect(text).not.toBe(await ephemeralReply(t, t.command({ commandName: 'help', locale: 'en-US' })));
    expect(text).toMatch(/Stufe/);
  });
});

describe('channel language German (BOT_LOCALE=de)', () => {
  let t: TestBot;
  beforeAll(async () => {
    t = await startTestBot({ BOT_LOCALE: 'de' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers a read in the channel in German, whatever the invoker speaks', async () => {
    const { body } = await deferredAnswer(t, t.command({ ...info, locale: 'en-US' }));
    const embed = embedsOf(body)[0] ?? {};
    expect(fieldValue(embed, 'Läuft ab')).toMatch(/^<t:\d+:D> \(in [\d.]+ Tagen\)$/);
    expect(fieldValue(embed, 'Aktiv')).toMatch(/ja|nein/);
  });

  it('writes the public record in German and the English invoker’s own outcome in English', async () => {
    const i = t.command({ ...rdns, locale: 'en-US' });
    const cb = await callbackOf(t, i);
    const buttons = arr(dig(cb.data, 'components', 0, 'components')).map((b) => rec(b));
    expect(buttons.map((b) => b.label)).toEqual(['Confirm', 'Cancel']);
    const message = t.discord.originalMessage(i);
    const click = t.discord.dispatchComponent({
      customId: str(buttons[0]?.custom_id),
      message: { id: message?.id ?? '' },
      roles: [ROLES.operator],
      locale: 'en-US',
    });
    await callbackOf(t, click);
    const privateEdit = rec((await t.nth(click, 1)).body);
    expect(embedsOf(privateEdit)[0]?.title).toBe('Reverse DNS set');
    const publicRecord = rec((await t.nth(click, 2)).body);
    expect(textOf(publicRecord)).toMatch(
      /^🛠️ <@\d+> hat Reverse-DNS von `203\.0\.113\.7` \(Server 42\) → `host\.example\.com` gesetzt\.$/,
    );
  });
});
