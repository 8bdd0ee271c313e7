import {
  ApplicationCommandOptionType,
  inlineCode,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { change } from '../src/discord/ChangeSpec.js';
import { defineCommand, GUILD_ONLY } from '../src/discord/CommandModule.js';
import { stringOption } from '../src/discord/options.js';
import type { MusicBotUser } from '../src/hosting/operations.js';
import type { Translator } from '../src/i18n/Translator.js';
import { Colour } from '../src/replies/colours.js';
import { escapeUserText } from '../src/replies/escapeUserText.js';
import { literal } from '../src/replies/literal.js';
import { parseEmail } from '../src/validation/parseEmail.js';
import { formatBytes, parseStorageSize } from '../src/validation/parseStorageSize.js';
import { parseUsername } from '../src/validation/parseUsername.js';

export const definition = {
  name: 'musicbot',
  description: 'Music-bot customer accounts',
  ...GUILD_ONLY,
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'create',
      description: 'Create a music-bot customer account (a password is generated)',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'username',
          description: 'Account user name',
          required: true,
          max_length: 64,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'email',
          description: 'Customer e-mail address',
          required: true,
          max_length: 254,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'storage',
          description: 'Storage quota: bytes or a size such as 512MB or 10 GiB',
          required: true,
          max_length: 32,
        },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'bots',
          description: 'Number of bot instances',
          required: true,
          min_value: 1,
          max_value: 1000,
        },
      ],
    },
  ],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** `10,737,418,240 bytes (10 GiB)` / `10.737.418.240 Byte (10 GiB)`. */
const size = (bytes: number, t: Translator) =>
  t('musicbot.size', { count: bytes, size: formatBytes(bytes, t.locale) });

type Account = Pick<MusicBotUser, 'username' | 'email' | 'storage' | 'bots'>;

const accountFields = (user: Account, show: (text: string) => string, t: Translator) => [
  { name: t('musicbot.field.username'), value: show(user.username), inline: true },
  { name: t('musicbot.field.email'), value: show(user.email), inline: true },
  { name: t('musicbot.field.storage'), value: size(user.storage, t), inline: true },
  // Exactly the number sent (at most 1000), like the other values.
  { name: t('musicbot.field.bots'), value: String(user.bots), inline: true },
];
// The prompt shows what will be sent, whole; the outcome shows what the provider echoed, which may
// hold anything and so is escaped (a field holds 1024 characters).
const exactly = literal;
const asEchoed = (text: string) => escapeUserText(text, 1024);

export const musicbot = defineCommand(definition, {
  subcommands: {
    create: change({
      tier: 'operator',
      operation: 'createMusicBotUser',
      parse: ({ interaction }) => ({
        username: stringOption(interaction.options, 'username', parseUsername),
        email: stringOption(interaction.options, 'email', parseEmail),
        storage: stringOption(interaction.options, 'storage', parseStorageSize),
        bots: interaction.options.getInteger('bots', true),
      }),
      target: ({ username }) => username,
      preview: (account, t) => ({
        title: t('musicbot.create.title'),
        fields: [
          ...accountFields(account, exactly, t),
          { name: t('musicbot.field.password'), value: t('musicbot.create.password_later'), inline: true },
        ],
      }),
      send: async (account, { hosting, call, secrets, generatePassword, requester, t, channelT }) => {
        // Generated only now, never stored; scrubbed from any log line while it is in flight.
        const password = generatePassword();
        const forget = secrets.add(password);
        try {
          const user = await hosting.createMusicBotUser({ ...account, password }, call);
          const fields = (words: Translator) => [
            { name: words('musicbot.field.id'), value: String(user.id), inline: true },
            ...accountFields(user, asEchoed, words),
          ];
          return {
            private: {
              embeds: [
                {
                  title: t('musicbot.create.done'),
                  color: Colour.success,
                  description: t('musicbot.create.password', { password: inlineCode(password) }),
                  fields: fields(t),
                },
              ],
            },
            public: {
              content: channelT('musicbot.create.record', { requester }),
              embeds: [
                { title: channelT('musicbot.create.done'), color: Colour.success, fields: fields(channelT) },
              ],
            },
            result: { accountId: user.id },
            // Shown once, to whoever confirmed: the console's --json prints it in that one answer.
            privateData: { password },
          };
        } finally {
          forget();
        }
      },
    }),
  },
});
