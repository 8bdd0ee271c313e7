import {
  ApplicationCommandOptionType,
  inlineCode,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  userMention,
} from 'discord.js';
import { type CommandModule, change, GUILD_ONLY } from '../src/discord/CommandModule.js';
import { integerOption, stringOption } from '../src/discord/options.js';
import { Colour } from '../src/discord/render/colours.js';
import { escapeUserText } from '../src/discord/render/escapeUserText.js';
import { literal } from '../src/discord/render/literal.js';
import type { MusicBotUser } from '../src/hosting/HostingClient.js';
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

const size = (bytes: number) => `${bytes.toLocaleString('en-US')} bytes (${formatBytes(bytes)})`;

type Account = Pick<MusicBotUser, 'username' | 'email' | 'storage' | 'bots'>;

const accountFields = (user: Account, show: (text: string) => string) => [
  { name: 'User name', value: show(user.username), inline: true },
  { name: 'E-mail', value: show(user.email), inline: true },
  { name: 'Storage', value: size(user.storage), inline: true },
  { name: 'Bots', value: String(user.bots), inline: true },
];
// The prompt shows what will be sent, whole; the outcome shows what the provider echoed, which may
// hold anything and so is escaped (a field holds 1024 characters).
const exactly = literal;
const asEchoed = (text: string) => escapeUserText(text, 1024);

export const musicbot: CommandModule = {
  definition,
  subcommands: {
    create: change({
      tier: 'operator',
      operation: 'createMusicBotUser',
      parse: ({ interaction }) => ({
        username: stringOption(interaction.options, 'username', parseUsername),
        email: stringOption(interaction.options, 'email', parseEmail),
        storage: stringOption(interaction.options, 'storage', parseStorageSize),
        bots: integerOption(interaction.options, 'bots', 1, 1000),
      }),
      target: ({ username }) => username,
      preview: (account) => ({
        title: 'Create music-bot account',
        fields: [
          ...accountFields(account, exactly),
          { name: 'Password', value: 'generated on confirm, shown only to you', inline: true },
        ],
      }),
      send: async (account, { hosting, correlationId, secrets, generatePassword, requesterId }) => {
        // Generated only now, never stored; scrubbed from any log line while it is in flight.
        const password = generatePassword();
        const forget = secrets.add(password);
        try {
          const user = await hosting.createMusicBotUser({ ...account, password }, { correlationId });
          const fields = [
            { name: 'Id', value: String(user.id), inline: true },
            ...accountFields(user, asEchoed),
          ];
          return {
            private: {
              embeds: [
                {
                  title: 'Music-bot account created',
                  color: Colour.success,
                  description: `Password (shown once, only to you): ${inlineCode(password)}\nPass it to the customer over a private channel.`,
                  fields,
                },
              ],
            },
            public: {
              content: `🎵 ${userMention(requesterId)} created a music-bot account.`,
              embeds: [{ title: 'Music-bot account created', color: Colour.success, fields }],
            },
            result: { accountId: user.id },
          };
        } finally {
          forget();
        }
      },
    }),
  },
};
