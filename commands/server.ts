import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { change } from '../src/discord/ChangeSpec.js';
import { defineCommand, GUILD_ONLY, type PrepareContext, read } from '../src/discord/CommandModule.js';
import { stringOption } from '../src/discord/options.js';
import { classifyLogStatus, renderServerLog } from '../src/discord/render/renderServerLog.js';
import { suggestServerIds } from '../src/discord/suggestions.js';
import { checkForwardDns, type ForwardCheck } from '../src/dns/checkForwardDns.js';
import { type Message, message, type Translator } from '../src/i18n/Translator.js';
import { serverLogData } from '../src/replies/answerData.js';
import { Colour } from '../src/replies/colours.js';
import { literal } from '../src/replies/literal.js';
import { RefusalError } from '../src/replies/UserError.js';
import { parseHostname } from '../src/validation/parseHostname.js';
import { parseIpv4WithPrefix } from '../src/validation/parseIp.js';

const serverIdOption = {
  type: ApplicationCommandOptionType.Integer,
  name: 'id',
  description: 'Server id',
  required: true,
  min_value: 1,
  // Suggestions: recently used server ids (src/discord/suggestions.ts).
  autocomplete: true,
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

export const server = defineCommand(definition, {
  subcommands: {
    logs: read({
      tier: 'viewer',
      autocomplete: suggestServerIds,
      parse: ({ interaction }) => interaction.options.getInteger('id', true),
      target: (serverId) => `server ${serverId}`,
      run: async ({ hosting, call, t }, serverId) => {
        const entry = await hosting.getServerLog(serverId, call);
        return {
          embeds: [renderServerLog(serverId, entry, t)],
          data: serverLogData(serverId, entry, classifyLogStatus(entry.status)),
        };
      },
    }),
    rdns: change({
      tier: 'operator',
      operation: 'setReverseDns',
      autocomplete: suggestServerIds,
      // A PUT: sending it again after an unknown outcome is safe.
      repeatable: true,
      parse: ({ interaction }): ReverseDnsParameters => ({
        serverId: interaction.options.getInteger('id', true),
        ip: stringOption(interaction.options, 'ip', parseIpv4WithPrefix),
        hostname: stringOption(interaction.options, 'hostname', parseHostname),
        validate: interaction.options.getBoolean('validate') ?? true,
      }),
      precheck: forwardCheck,
      // Under `require` the send relies on the match the prompt showed: asked again before sending (an
      // approval may come days later).
      recheck: forwardCheckAgain,
      target: ({ serverId, ip }) => `server ${serverId} ${ip}`,
      preview: ({ serverId, ip, hostname, validate, forward }, t) => ({
        title: t('server.rdns.title'),
        fields: [
          { name: t('server.rdns.server_id'), value: String(serverId), inline: true },
          { name: t('server.rdns.ip'), value: literal(ip), inline: true },
          { name: t('server.rdns.hostname'), value: literal(hostname), inline: true },
          {
            name: t('server.rdns.validate'),
            value: validate ? t('common.yes') : t('common.no'),
            inline: true,
          },
          ...(forward
            ? [{ name: t('server.rdns.forward'), value: describeForwardCheck(forward, { ip, hostname }, t) }]
            : []),
        ],
      }),
      send: async (input, { hosting, call, requester, t, channelT }) => {
        await hosting.setReverseDns(input, call);
        const summary = (words: Translator) =>
          words('server.rdns.summary', {
            ip: literal(input.ip),
            server: String(input.serverId),
            hostname: literal(input.hostname),
          });
        return {
          private: {
            embeds: [{ title: t('server.rdns.done'), color: Colour.success, description: summary(t) }],
          },
          public: {
            content: channelT('server.rdns.record', {
              requester,
              summary: summary(channelT),
            }),
          },
        };
      },
    }),
  },
});

interface ReverseDnsParameters {
  serverId: number;
  ip: string;
  hostname: string;
  validate: boolean;
  /** What the forward look-up of `hostname` found when the prompt was opened (not sent). */
  forward?: ForwardCheck;
}

/** The address part of `203.0.113.7/32`. */
const addressOf = (ip: string) => ip.split('/')[0] ?? ip;

/**
 * Mail servers accept a PTR record only when its host name resolves back to the address (forward-confirmed
 * reverse DNS): asked before the prompt, within about 2 s, per RDNS_FORWARD_CHECK.
 */
function forwardCheck(
  parameters: ReverseDnsParameters,
  context: PrepareContext,
): ReverseDnsParameters | Promise<ReverseDnsParameters> {
  const { forward: _earlier, ...sent } = parameters;
  if (context.config.dns.forwardCheck === 'off') return sent;
  return lookUpForward(sent, context, 'server.rdns.forward.refused').then((forward) => ({
    ...sent,
    forward,
  }));
}

/** RDNS_FORWARD_CHECK=require, right before sending: refused unless the host name still resolves to the IP. */
async function forwardCheckAgain(parameters: ReverseDnsParameters, context: PrepareContext) {
  if (context.config.dns.forwardCheck === 'require') {
    await lookUpForward(parameters, context, 'server.rdns.forward.refused_now');
  }
  return undefined;
}

/** The look-up of the host name's A records; under `require`, anything but a match is refused (`refusal`). */
async function lookUpForward(
  sent: ReverseDnsParameters,
  { config, resolver }: PrepareContext,
  refusal: 'server.rdns.forward.refused' | 'server.rdns.forward.refused_now',
): Promise<ForwardCheck> {
  const ip = addressOf(sent.ip);
  const forward = await checkForwardDns(sent.hostname, ip, { resolver, budgetMs: FORWARD_CHECK_BUDGET_MS });
  if (config.dns.forwardCheck === 'require' && forward.kind !== 'match') {
    throw new RefusalError(
      message(refusal, {
        hostname: literal(sent.hostname),
        ip: literal(ip),
        found: forwardFinding(forward, sent),
      }),
      'forward_dns',
    );
  }
  return forward;
}

const FORWARD_CHECK_BUDGET_MS = 2_000;

function forwardFinding(forward: ForwardCheck, { ip, hostname }: { ip: string; hostname: string }): Message {
  const names = { hostname: literal(hostname), ip: literal(addressOf(ip)) };
  switch (forward.kind) {
    case 'match':
      return message('server.rdns.forward.match', names);
    case 'mismatch':
      return message('server.rdns.forward.mismatch', {
        ...names,
        addresses: forward.addresses.map(literal).join(', '),
      });
    case 'no_address':
      return message('server.rdns.forward.no_address', names);
    case 'unchecked':
      return forward.reason === 'timeout'
        ? message('server.rdns.forward.timeout')
        : message('server.rdns.forward.error', { detail: literal(forward.detail) });
  }
}

function describeForwardCheck(
  forward: ForwardCheck,
  sent: { ip: string; hostname: string },
  t: Translator,
): string {
  return t.render(forwardFinding(forward, sent));
}
