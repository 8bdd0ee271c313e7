import {
  ApplicationCommandOptionType,
  inlineCode,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { change } from '../src/discord/ChangeSpec.js';
import { defineCommand, GUILD_ONLY } from '../src/discord/CommandModule.js';
import { optionalStringOption } from '../src/discord/options.js';
import type { Translator } from '../src/i18n/Translator.js';
import { Colour } from '../src/replies/colours.js';
import { escapeUserText } from '../src/replies/escapeUserText.js';
import { literal } from '../src/replies/literal.js';
import { parseEmail } from '../src/validation/parseEmail.js';
import { formatBytes, parseStorageSize } from '../src/validation/parseStorageSize.js';
import { parseUsername } from '../src/validation/parseUsername.js';
import { ACCOUNT_LIMITS, type Account, accountForm, accountFromForm } from './musicbot/accountForm.js';

export const definition = {
  name: 'musicbot',
  description: 'Music-bot customer accounts',
  ...GUILD_ONLY,
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'create',
      description:
        'Create a music-bot customer account (a password is generated; without options, a form opens)',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'username',
          description: 'Account user name',
          max_length: ACCOUNT_LIMITS.username,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'email',
          description: 'Customer e-mail address',
          max_length: ACCOUNT_LIMITS.email,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'storage',
          description: 'Storage quota: bytes or a size such as 512MB or 10 GiB',
          max_length: ACCOUNT_LIMITS.storage,
        },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'bots',
          description: 'Number of bot instances',
          min_value: 1,
          max_value: ACCOUNT_LIMITS.bots,
        },
      ],
    },
  ],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** `10,737,418,240 bytes (10 GiB)` / `10.737.418.240 Byte (10 GiB)`. */
const size = (bytes: number, t: Translator) =>
  t('musicbot.size', { count: bytes, size: formatBytes(bytes, t.locale) });

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
      // All four options: the one-line path. Any missing: the form, filled in with those given (each
      // checked first, as on the one-line path).
      parse: ({ interaction, config, t }) => {
        const { options } = interaction;
        const given = {
          username: optionalStringOption(options, 'username', parseUsername),
          email: optionalStringOption(options, 'email', parseEmail),
          storage: optionalStringOption(options, 'storage', parseStorageSize),
          bots: options.getInteger('bots') ?? undefined,
        };
        const { username, email, storage, bots } = given;
        if (username !== undefined && email !== undefined && storage !== undefined && bots !== undefined)
          return { username, email, storage, bots };
        return accountForm(given, config.musicbot, t);
      },
      submitForm: (_state, values) => accountFromForm(values),
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
