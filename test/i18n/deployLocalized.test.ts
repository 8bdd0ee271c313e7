import { afterEach, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.js';
import { deployConfigSchema, parseConfig } from '../../src/config.js';
import { deployCommands } from '../../src/discord/deployCommands.js';
import { commandTexts } from '../../src/i18n/commandTexts.js';
import { commandPaths, localizeCommand } from '../../src/i18n/localizeCommand.js';
import { captureLogs } from '../support/captureLogs.js';
import { FakeDiscord } from '../support/FakeDiscord.js';

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

interface Registered {
  name: string;
  value?: string | number;
  name_localizations?: Record<string, string> | null;
  description_localizations?: Record<string, string> | null;
  options?: Registered[];
  choices?: Registered[];
}

/** What Discord shows German clients, by the paths commandPaths names: name and description. */
function germanTexts(command: Registered): Map<string, { name?: string; description?: string }> {
  const found = new Map<string, { name?: string; description?: string }>();
  const visit = (item: Registered, path: string) => {
    found.set(path, {
      ...(item.name_localizations?.de ? { name: item.name_localizations.de } : {}),
      ...(item.description_localizations?.de ? { description: item.description_localizations.de } : {}),
    });
    for (const option of item.options ?? []) visit(option, `${path}.${option.name}`);
    for (const choice of item.choices ?? []) visit(choice, `${path}=${choice.value}`);
  };
  visit(command, command.name);
  return found;
}

describe('deploy-commands registers the German names and descriptions', () => {
  it('the bulk PUT carries name_localizations.de and description_localizations.de at every level', async () => {
    fake = await FakeDiscord.start();
    const config = parseConfig(
      {
        DISCORD_TOKEN: fake.token,
        DISCORD_API_URL: fake.apiUrl,
        DISCORD_APPLICATION_ID: fake.applicationId,
        DISCORD_GUILD_ID: fake.guildId,
      },
      deployConfigSchema,
    );
    const logs = captureLogs();
    await deployCommands(config, logs.logger, commands);

    const put = fake.requests.find((r) => r.method === 'PUT' && r.path.endsWith('/commands'));
    const body = put?.body as Registered[];
    expect(body).toEqual(JSON.parse(JSON.stringify(commands.map((c) => localizeCommand(c.definition)))));
    expect(body.map((c) => c.name_localizations?.de)).toEqual([
      'server',
      'domain',
      'musikbot',
      'panel',
      'hilfe',
      'audit',
      'überwachung',
      'zugriff',
    ]);

    for (const [index, command] of commands.entries()) {
      const sent = body[index];
      if (!sent) throw new Error(`${command.definition.name} not sent`);
      const german = germanTexts(sent);
      for (const [path, english] of commandPaths(command.definition)) {
        const expected = commandTexts.de[path];
        expect(german.get(path)?.name, path).toBe(expected?.name);
        if (english.description !== undefined) {
          expect(german.get(path)?.description, path).toBe(expected?.description);
        }
      }
    }

    // And what the guild now has (as Discord would show it to a German client).
    const registered = fake.registeredCommands(fake.guildId) as unknown as Registered[];
    const domain = registered.find((c) => c.name === 'domain');
    expect(domain?.options?.find((o) => o.name === 'expiry')?.name_localizations).toEqual({ de: 'ablauf' });
    expect(logs.text).not.toContain(fake.token);
  });
});
