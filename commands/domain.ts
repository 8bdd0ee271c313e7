import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { DateTime } from 'luxon';
import pLimit from 'p-limit';
import { readScopeOf } from '../src/access/readScopeOf.js';
import { change } from '../src/discord/ChangeSpec.js';
import {
  type CommandContext,
  type ContextOf,
  defineCommand,
  GUILD_ONLY,
  type ReadAnswer,
  read,
} from '../src/discord/CommandModule.js';
import { describeError } from '../src/discord/describeError.js';
import { optionalStringOption, stringOption } from '../src/discord/options.js';
import { daysUntil } from '../src/discord/render/daysUntil.js';
import { domainLabel } from '../src/discord/render/domainLabel.js';
import { type ExpiryResult, renderDomainExpiry } from '../src/discord/render/renderDomainExpiry.js';
import { renderDomainInfo } from '../src/discord/render/renderDomainInfo.js';
import { suggestDomains } from '../src/discord/suggestions.js';
import { HostingApiError } from '../src/hosting/HostingApiError.js';
import { message } from '../src/i18n/Translator.js';
import { registryData } from '../src/rdap/registryData.js';
import { type DomainExpiryData, domainInfoData, failedLookupData } from '../src/replies/answerData.js';
import { Colour } from '../src/replies/colours.js';
import { literal } from '../src/replies/literal.js';
import { InvalidOptionError } from '../src/replies/UserError.js';
import { cutText } from '../src/text/cutText.js';
import { type ParsedDomain, parseDomain } from '../src/validation/parseDomain.js';
import { parseDomainList } from '../src/validation/parseDomainList.js';
import { parseHostname } from '../src/validation/parseHostname.js';
import { parseIdentifier } from '../src/validation/parseIdentifier.js';
import { dnsChange, dnsRecordsRead } from './domain/dnsSubcommands.js';
import { registryBeside, registryFields, registryNote, withRegistry } from './domain/registryBeside.js';

/** Calls in flight for one bulk expiry check: enough to be quick, few enough to stay polite. */
export const EXPIRY_CONCURRENCY = 8;
const MAX_BULK_DOMAINS = 50;

const CONTACTS = [
  {
    option: 'owner',
    apiName: 'ownerC',
    variable: 'DEFAULT_OWNER_C',
    label: 'Owner contact',
    key: 'domain.contact.owner',
  },
  {
    option: 'admin',
    apiName: 'adminC',
    variable: 'DEFAULT_ADMIN_C',
    label: 'Admin contact',
    key: 'domain.contact.admin',
  },
  {
    option: 'tech',
    apiName: 'techC',
    variable: 'DEFAULT_TECH_C',
    label: 'Tech contact',
    key: 'domain.contact.tech',
  },
  {
    option: 'zone',
    apiName: 'zoneC',
    variable: 'DEFAULT_ZONE_C',
    label: 'Zone contact',
    key: 'domain.contact.zone',
  },
] as const;

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
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'register',
      description: 'Register a domain',
      options: [
        domainOption('Domain name to register'),
        {
          type: ApplicationCommandOptionType.String,
          name: 'ns1',
          description: 'First name server (ns1.example.net)',
          required: true,
          max_length: 253,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'ns2',
          description: 'Second name server (ns2.example.net)',
          required: true,
          max_length: 253,
        },
        ...CONTACTS.map(
          (contact) =>
            ({
              type: ApplicationCommandOptionType.String,
              name: contact.option,
              description: `${contact.label} handle (default from ${contact.variable})`,
              max_length: 64,
            }) as const,
        ),
      ],
    },
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

const parseHandle = (raw: string) =>
  parseIdentifier(raw, {
    maxLength: 64,
    what: message('domain.handle.what'),
    expected: message('domain.handle.expected'),
  });

function today({ now, config }: CommandContext): DateTime {
  return DateTime.fromJSDate(now(), { zone: config.hosting.timeZone }).startOf('day');
}

interface Registration {
  domain: ParsedDomain;
  ns1: string;
  ns2: string;
  ownerC: string;
  adminC: string;
  techC: string;
  zoneC: string;
}

function parseRegistration({ interaction, config }: ContextOf<typeof definition, 'register'>): Registration {
  const { options } = interaction;
  const domain = stringOption(options, 'domain', parseDomain);
  const ns1 = stringOption(options, 'ns1', parseHostname);
  const ns2 = stringOption(options, 'ns2', parseHostname);
  if (ns1 === ns2)
    throw new InvalidOptionError(
      'ns2',
      message('domain.register.same_ns', { ns1 }),
      message('domain.register.second_ns'),
    );
  // The option and its default in config.contactDefaults share one name.
  const [ownerC, adminC, techC, zoneC] = CONTACTS.map((contact) => {
    const value =
      optionalStringOption(options, contact.option, parseHandle) ?? config.contactDefaults[contact.option];
    if (value === undefined) {
      throw new InvalidOptionError(
        contact.option,
        message('domain.register.contact_missing', { variable: contact.variable }),
        message('domain.register.contact_expected'),
      );
    }
    return value;
  }) as [string, string, string, string];
  return { domain, ns1, ns2, ownerC, adminC, techC, zoneC };
}

const register = change<Registration>({
  tier: 'admin',
  operation: 'createDomain',
  parse: parseRegistration,
  target: ({ domain }) => domain.ascii,
  preview: (registration, t) => ({
    title: t('domain.register.title'),
    fields: [
      { name: t('domain.register.domain'), value: domainLabel(registration.domain) },
      {
        name: t('domain.register.name_servers'),
        value: `${literal(registration.ns1)}\n${literal(registration.ns2)}`,
      },
      ...CONTACTS.map((c) => ({ name: t(c.key), value: literal(registration[c.apiName]), inline: true })),
    ],
  }),
  send: async ({ domain, ...rest }, { hosting, call, requester, t, channelT }) => {
    await hosting.createDomain({ domain: domain.ascii, ...rest }, call);
    const servers = `${literal(rest.ns1)}, ${literal(rest.ns2)}`;
    return {
      private: {
        embeds: [
          {
            title: t('domain.register.done'),
            color: Colour.success,
            description: t('domain.register.summary', { domain: domainLabel(domain), servers }),
          },
        ],
      },
      public: {
        content: channelT('domain.register.record', {
          requester,
          domain: domainLabel(domain),
          servers,
        }),
      },
    };
  },
  readBack: {
    // The provider knows a registered domain: a 404 means the registration did not happen.
    verify: async ({ domain }, { hosting, call }) => {
      try {
        // Fresh: an identical /domain info sent before the registration cannot answer for it.
        await hosting.getDomainInfo(domain.ascii, { ...call, fresh: true });
        return true;
      } catch (error) {
        if (error instanceof HostingApiError && error.kind === 'not_found') return false;
        throw error;
      }
    },
    applied: ({ domain }, t) => t('domain.register.applied', { domain: domainLabel(domain) }),
    notApplied: ({ domain }, t) => t('domain.register.not_applied', { domain: domainLabel(domain) }),
  },
});

export const domain = defineCommand(definition, {
  subcommands: {
    info: read({
      tier: 'viewer',
      autocomplete: suggestDomains,
      parse: ({ interaction }) => stringOption(interaction.options, 'domain', parseDomain),
      target: (name) => name.ascii,
      run: async (context, name) => {
        const info = await context.hosting.getDomainInfo(name.ascii, context.call);
        const days = info.expiryDate ? daysUntil(info.expiryDate, today(context)) : null;
        const providerExpiry = info.expiryDate?.toISODate() ?? null;
        const zone = context.config.hosting.timeZone;
        const entry = { domain: name.ascii, unicode: name.unicode, providerExpiry };
        // The provider's answer does not wait long for the registry's: that may follow as an edit.
        return withRegistry(context, entry, (registry) => {
          const embed = renderDomainInfo(name, info, today(context), context.t);
          if (registry) embed.fields?.push(...registryFields(registry, providerExpiry, zone, context.t));
          return {
            embeds: [embed],
            data: {
              ...domainInfoData(name, info, days),
              ...(registry ? { registry: registryData(registry, zone) } : {}),
            },
          };
        });
      },
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
        const registry = await registryBeside(
          context,
          results
            .filter((r) => r.info && r.error === undefined)
            .map((r) => ({
              domain: r.domain.ascii,
              unicode: r.domain.unicode,
              providerExpiry: providerExpiry(r),
            })),
        );
        for (const result of results) {
          const view = registry.get(result.domain.ascii);
          if (view) result.note = registryNote(view, providerExpiry(result), zone, context.t);
        }
        const invalid = list.invalid.map(({ input, error }) => ({
          input,
          reason: context.t.render(error.problem),
        }));
        const data: DomainExpiryData = {
          within,
          domains: results.map(({ domain, info, error }) => {
            const view = registry.get(domain.ascii);
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
        };
        // The data goes with the first message (the one with the summary).
        const messages: ReadAnswer[] = renderDomainExpiry(
          results,
          within,
          today(context),
          context.t,
          invalid,
        ).map((embeds) => ({ embeds }));
        return messages.map((body, index) => (index === 0 ? { ...body, data } : body));
      },
    }),
    register,
    dns: dnsChange,
    records: dnsRecordsRead,
  },
});
