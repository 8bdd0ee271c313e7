import { describe, expect, it } from 'vitest';
import { help } from '../../commands/help.js';
import { commands } from '../../commands/index.js';
import type { CommandContext } from '../../src/discord/CommandModule.js';
import { commandTexts } from '../../src/i18n/commandTexts.js';
import type { Locale } from '../../src/i18n/locales.js';
import { translator } from '../../src/i18n/Translator.js';
import type { ReplyBody } from '../../src/replies/ReplyBody.js';

// /help sits beside /audit: both are HostOps' own info commands, answered only to the invoker.

const OPS_CHANNEL = '400000000000000001';

async function respond(locale: Locale, channelId = OPS_CHANNEL, sandbox = false): Promise<ReplyBody> {
  const subcommand = help.subcommands[''];
  if (subcommand?.kind !== 'info') throw new Error('/help is an info command');
  const context = {
    commands,
    tier: 'viewer',
    config: {
      access: { channelIds: [OPS_CHANNEL], viewerRoleIds: [], operatorRoleIds: ['1'], adminRoleIds: ['2'] },
      hosting: { sandbox },
    },
    // What the gates read of an interaction: a member of the guild that installed HostOps, no roles.
    interaction: {
      channelId,
      inGuild: () => true,
      authorizingIntegrationOwners: { guildId: '100000000000000000' },
      member: { roles: [] },
    },
    t: translator(locale),
    locale,
  } as unknown as CommandContext;
  return subcommand.respond(context);
}

const embedOf = (body: ReplyBody) => body.embeds?.[0] ?? {};

describe('/help in the invoker’s language', () => {
  it('on the sandbox, it lists the domains and servers the sandbox knows, in the reader’s language', async () => {
    expect(embedOf(await respond('en')).description).not.toContain('sandbox');
    const en = embedOf(await respond('en', OPS_CHANNEL, true)).description ?? '';
    expect(en).toContain('🧪 The sandbox knows these domains: `example.com`, `example.net`');
    expect(en).toContain('`bücher.example`');
    expect(en).toContain('`42` (web-01)');
    expect(embedOf(await respond('de', OPS_CHANNEL, true)).description).toContain(
      '🧪 Die Sandbox kennt diese Domains:',
    );
  });

  it('English reads as before', async () => {
    const embed = embedOf(await respond('en'));
    expect(embed.title).toBe('HostOps commands');
    expect(embed.description).toContain(
      '✅ `/domain info` — Show the status and expiry of a domain · *viewer*',
    );
    expect(embed.description?.endsWith('\n\nChanges always ask for confirmation first.')).toBe(true);
    expect(embed.footer?.text).toBe('✅ you may run it here · 🚫 you may not. Your tier: viewer.');
    expect(embedOf(await respond('en', '400000000000000099')).footer?.text).toBe(
      '✅ you may run it here · 🚫 you may not. Your tier: viewer. Commands are only taken in the ops channels.',
    );
  });

  it('German: title, footer, and each command’s German description (English where none is set)', async () => {
    const embed = embedOf(await respond('de'));
    expect(embed.title).toBe('HostOps-Befehle');
    expect(embed.description?.endsWith('\n\nÄnderungen fragen immer zuerst nach einer Bestätigung.')).toBe(
      true,
    );
    expect(embed.footer?.text).toBe('✅ darfst du hier ausführen · 🚫 darfst du nicht. Deine Stufe: viewer.');
    expect(embedOf(await respond('de', '400000000000000099')).footer?.text).toContain(
      'Befehle werden nur in den Ops-Kanälen angenommen.',
    );
    const english = embedOf(await respond('en')).description?.split('\n') ?? [];
    const lines = embed.description?.split('\n') ?? [];
    // Each command as a German client lists it: German names and descriptions.
    for (const [path, label] of [
      ['domain.info', '/domain info'],
      ['watch.add', '/watch add'],
      ['help', '/help'],
    ] as const) {
      const [command = '', sub] = path.split('.');
      const germanLabel = `/${commandTexts.de[command]?.name}${sub ? ` ${commandTexts.de[path]?.name}` : ''}`;
      expect(english.some((l) => l.includes(`\`${label}\``))).toBe(true);
      expect(lines.find((l) => l.includes(`\`${germanLabel}\``))).toContain(
        `\`${germanLabel}\` — ${commandTexts.de[path]?.description} · *`,
      );
    }
    expect(embed.description).toContain('`/überwachung hinzufügen`');
  });
});
