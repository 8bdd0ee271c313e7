import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { DateTime } from 'luxon';
import pLimit from 'p-limit';
import { readScopeOf } from '../src/access/readScopeOf.js';
import {
  type CommandContext,
  defineCommand,
  GUILD_ONLY,
  type ReadAnswer,
  read,
} from '../src/discord/CommandModule.js';
import { describeError } from '../src/discord/describeError.js';
import { stringOption } from '../src/discord/options.js';
import { daysUntil } from '../src/discord/render/daysUntil.js';
import { type ExpiryResult, renderDomainExpiry } from '../src/discord/render/renderDomainExpiry.js';
import { suggestDomains } from '../src/discord/suggestions.js';
import { type RegistryBeside, registryData } from '../src/rdap/registryData.js';
import { type DomainExpiryData, domainInfoData, failedLookupData } from '../src/replies/answerData.js';
import { cutText } from '../src/text/cutText.js';
import { parseDomain } from '../src/validation/parseDomain.js';
import { parseDomainList } from '../src/validation/parseDomainList.js';
import { dnsChange, dnsRecordsRead } from './domain/dnsSubcommands.js';
import { infoAnswer, reask } from './domain/infoAnswer.js';
import { register, registerSubcommand } from './domain/register.js';
import { registryFollowing, registryNote, storedBeside } from './domain/registryBeside.js';

/** Calls in flight for one bulk expiry check: enough to be quick, few enough to stay polite. */
export const EXPIRY_CONCURRENCY = 8;
const MAX_BULK_DOMAINS = 50;

const domainOption = (description: string, autocomplete = false) =>
  ({
    type: ApplicationCommandOptionType.String,
    name: 'domain',
    description,
    required: true,
    max_length: 253,
    // Suggestions: watched and recently used domains (src/discord/suggestions.ts).
    ...(autocomplete ? { autocomplete: true } : {}),
  }) as const;

export const definition = {
  name: 'domain',
  description: 'Domain status, expiry, registration and DNS records',
  ...GUILD_ONLY,
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'info',
      description: 'Show the status and expiry of a domain',
      options: [domainOption('Domain name (IDN allowed: bücher.de)', true)],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'expiry',
      description: 'Check when up to 50 domains expire',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'domains',
          description: 'Domain names separated by spaces, commas or new lines',
          required: true,
          max_length: 6000,
        },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'within',
          description: 'Flag domains expiring within this many days (default 30)',
          min_value: 0,
          max_value: 3650,
        },
      ],
    },
    registerSubcommand,
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'dns',
      description: 'Submit DNS records for a domain (without records, an editor opens)',
      options: [
        domainOption('Domain name', true),
        {
          type: ApplicationCommandOptionType.String,
          name: 'records',
          description: 'Zone lines (www 3600 A 203.0.113.7) or a JSON array; omit for a multi-line editor',
          max_length: 6000,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'records',
      description: 'The last DNS record set sent for a domain through HostOps: who, when, and the records',
      options: [domainOption('Domain name', true)],
    },
  ],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

function today({ now, config }: CommandContext): DateTime {
  return DateTime.fromJSDate(now(), { zone: config.hosting.timeZone }).startOf('day');
}

export const domain = defineCommand(definition, {
  subcommands: {
    info: read({
      tier: 'viewer',
      autocomplete: suggestDomains,
      parse: ({ interaction }) => stringOption(interaction.options, 'domain', parseDomain),
      target: (name) => name.ascii,
      // The provider's answer does not wait for the registry's: that follows as an edit.
      run: (context, name) => infoAnswer(context, name),
    }),
    expiry: read({
      tier: 'viewer',
      parse: ({ interaction }) => ({
        list: stringOption(interaction.options, 'domains', (raw) => parseDomainList(raw, MAX_BULK_DOMAINS)),
        within: interaction.options.getInteger('within') ?? 30,
      }),
      target: ({ list }) => cutText(list.domains.map((d) => d.ascii).join(' '), 200),
      run: async (context, { list, within }) => {
        const limit = pLimit(EXPIRY_CONCURRENCY);
        const readable = await readScopeOf(context);
        // One failure must not hide the others: each lookup settles into its own line.
        const results = await Promise.all(
          list.domains.map((name) =>
            limit(async (): Promise<ExpiryResult> => {
              // Outside the invoker's read scope: no call, and none of its data in the answer.
              if (!readable.covers({ kind: 'domain', ascii: name.ascii }))
                return { domain: name, error: context.t('access.read.not_yours') };
              try {
                const info = await context.hosting.getDomainInfo(name.ascii, context.call);
                return { domain: name, info };
              } catch (error) {
                const description = describeError(error, context.correlationId, context.t);
                if (description.unexpected)
                  context.logger.error({ err: error, domain: name.ascii }, 'expiry lookup failed');
                return { domain: name, error: description.short };
              }
            }),
          ),
        );
        const zone = context.config.hosting.timeZone;
        const providerExpiry = (result: ExpiryResult) => result.info?.expiryDate?.toISODate() ?? null;
        const entries = results
          .filter((r) => r.info && r.error === undefined)
          .map((r) => ({
            domain: r.domain.ascii,
            unicode: r.domain.unicode,
            providerExpiry: providerExpiry(r),
          }));
        // The provider's answer goes out now with what the registry said within the day; the others are
        // asked after it, and the registry's word on them follows in a message of its own.
        const { views: registry, due } = await storedBeside(context, entries);
        for (const result of results) {
          const view = registry.get(result.domain.ascii);
          if (view) result.note = registryNote(view, providerExpiry(result), zone, context.t);
        }
        const invalid = list.invalid.map(({ input, error }) => ({
          input,
          reason: context.t.render(error.problem),
        }));
        const dataOf = (views: ReadonlyMap<string, RegistryBeside>): DomainExpiryData => ({
          within,
          domains: results.map(({ domain, info, error }) => {
            const view = views.get(domain.ascii);
            return info && error === undefined
              ? {
                  ...domainInfoData(
                    domain,
                    info,
                    info.expiryDate ? daysUntil(info.expiryDate, today(context)) : null,
                  ),
                  ...(view ? { registry: registryData(view, zone) } : {}),
                }
              : failedLookupData(domain, error ?? context.t('domain.expiry.no_answer'));
          }),
          invalid,
        });
        const followUp = registryFollowing(context, due, zone, (views) =>
          dataOf(new Map([...registry, ...views])),
        );
        const data = dataOf(registry);
        // The data goes with the first message (the one with the summary).
        const messages: ReadAnswer[] = renderDomainExpiry(
          results,
          within,
          today(context),
          context.t,
          invalid,
        ).map((embeds) => ({ embeds }));
        const asking = followUp
          ? { content: context.t('rdap.expiry.asking', { count: due.length }), followUp }
          : {};
        return messages.map((body, index) => (index === 0 ? { ...body, ...asking, data } : body));
      },
    }),
    register,
    dns: dnsChange,
    records: dnsRecordsRead,
  },
  components: { reask },
});
