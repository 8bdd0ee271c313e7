import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  userMention,
} from 'discord.js';
import { type CommandModule, GUILD_ONLY, read } from '../src/discord/CommandModule.js';
import { integerOption, stringOption } from '../src/discord/options.js';
import { Colour } from '../src/discord/render/colours.js';
import { literal } from '../src/discord/render/literal.js';
import { renderServerLog } from '../src/discord/render/renderServerLog.js';
import { parseHostname } from '../src/validation/parseHostname.js';
import { parseIpv4WithPrefix } from '../src/validation/parseIp.js';

const serverIdOption = {
  type: ApplicationCommandOptionType.Integer,
  name: 'id',
  description: 'Server id',
  required: true,
  min_value: 1,
} as const;

export const definition = {
  name: 'server',
  description: 'Server log entries and reverse DNS',
  ...GUILD_ONLY,
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'logs',
      description: 'Show the log entry of a server',
      options: [serverIdOption],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'rdns',
      description: 'Set the reverse DNS entry of a server IPv4 address',
      options: [
        serverIdOption,
        {
          type: ApplicationCommandOptionType.String,
          name: 'ip',
          description: 'IPv4 address, optionally with a prefix (203.0.113.7 or 203.0.113.7/32)',
          required: true,
          max_length: 18,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'hostname',
          description: 'Host name for the rDNS entry (host.example.com)',
          required: true,
          max_length: 253,
        },
        {
          type: ApplicationCommandOptionType.Boolean,
          name: 'validate',
          description: 'Check beforehand that the host name exists (default: true)',
        },
      ],
    },
  ],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export const server: CommandModule = {
  definition,
  subcommands: {
    logs: read({
      tier: 'viewer',
      parse: ({ interaction }) => integerOption(interaction.options, 'id', 1),
      run: async ({ hosting, correlationId }, serverId) => {
        const entry = await hosting.getServerLog(serverId, { correlationId });
        return { embeds: [renderServerLog(serverId, entry)] };
      },
    }),
    rdns: {
      kind: 'change',
      tier: 'operator',
      prepare: ({ interaction }) => {
        const serverId = integerOption(interaction.options, 'id', 1);
        const ip = stringOption(interaction.options, 'ip', parseIpv4WithPrefix);
        const hostname = stringOption(interaction.options, 'hostname', parseHostname);
        const validate = interaction.options.getBoolean('validate') ?? true;
        const actor = interaction.user.id;
        return {
          title: 'Set reverse DNS',
          preview: [
            { name: 'Server id', value: String(serverId), inline: true },
            { name: 'IP', value: literal(ip), inline: true },
            { name: 'Host name (rDNS)', value: literal(hostname), inline: true },
            { name: 'Validate first', value: validate ? 'yes' : 'no', inline: true },
          ],
          execute: async ({ hosting, correlationId }) => {
            await hosting.setReverseDns({ serverId, ip, hostname, validate }, { correlationId });
            const summary = `reverse DNS of ${literal(ip)} (server ${serverId}) → ${literal(hostname)}`;
            return {
              private: {
                embeds: [{ title: 'Reverse DNS set', color: Colour.success, description: summary }],
              },
              public: { content: `🛠️ ${userMention(actor)} set the ${summary}.` },
            };
          },
        };
      },
    },
  },
};
