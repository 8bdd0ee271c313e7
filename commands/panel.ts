import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { maskSecret } from '../src/changes/maskSecret.js';
import { change } from '../src/discord/ChangeSpec.js';
import { defineCommand, GUILD_ONLY } from '../src/discord/CommandModule.js';
import { stringOption } from '../src/discord/options.js';
import { message, type Translator } from '../src/i18n/Translator.js';
import { Colour } from '../src/replies/colours.js';
import { literal } from '../src/replies/literal.js';
import { InvalidValueError } from '../src/validation/InvalidValueError.js';
import { parseIdentifier } from '../src/validation/parseIdentifier.js';
import { parseIpAddress } from '../src/validation/parseIp.js';

export const definition = {
  name: 'panel',
  description: 'Hosting-panel licenses',
  ...GUILD_ONLY,
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'bind',
      description: 'Bind a hosting-panel license to an IP address',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'license',
          description: 'License key',
          required: true,
          max_length: 128,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'ip',
          description: 'IPv4 or IPv6 address (203.0.113.7 or 2001:db8::7)',
          required: true,
          max_length: 45,
        },
      ],
    },
  ],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

const parseLicense = (raw: string) => {
  // What records, messages and the console's history show of a key: sent, it would bind nothing.
  if (raw.startsWith('…')) {
    throw new InvalidValueError(message('panel.license.masked'), message('panel.license.expected'));
  }
  return parseIdentifier(raw, {
    maxLength: 128,
    what: message('panel.license.what'),
    expected: message('panel.license.expected'),
    secret: true,
  });
};

export const panel = defineCommand(definition, {
  subcommands: {
    bind: change({
      tier: 'operator',
      operation: 'bindPanelLicense',
      // License keys are paid credentials: kept only while the prompt is open.
      secrets: ['license'],
      parse: ({ interaction }) => ({
        license: stringOption(interaction.options, 'license', parseLicense),
        ip: stringOption(interaction.options, 'ip', parseIpAddress),
      }),
      target: ({ ip }) => ip,
      preview: ({ license, ip }, t) => ({
        title: t('panel.bind.title'),
        fields: [
          { name: t('panel.bind.license'), value: literal(license), inline: true },
          { name: t('panel.bind.ip'), value: literal(ip), inline: true },
        ],
      }),
      send: async ({ license, ip }, { hosting, call, requester, t, channelT }) => {
        await hosting.bindPanelLicense({ license, ip }, call);
        const summary = (words: Translator, key: string) =>
          words('panel.bind.summary', { license: literal(key), ip: literal(ip) });
        return {
          private: {
            embeds: [
              { title: t('panel.bind.done'), color: Colour.success, description: summary(t, license) },
            ],
          },
          // The channel record shows only the key's tail.
          public: {
            content: channelT('panel.bind.record', {
              requester,
              summary: summary(channelT, maskSecret(license)),
            }),
          },
        };
      },
    }),
  },
});
