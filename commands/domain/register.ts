import { type APIApplicationCommandSubcommandOption, ApplicationCommandOptionType } from 'discord.js';
import { change } from '../../src/discord/ChangeSpec.js';
import type { CommandContext, FormField, ModalRequest } from '../../src/discord/CommandModule.js';
import { optionalStringOption, validated } from '../../src/discord/options.js';
import { domainLabel } from '../../src/discord/render/domainLabel.js';
import type { NamesOf } from '../../src/discord/typedOptions.js';
import { HostingApiError } from '../../src/hosting/HostingApiError.js';
import { message } from '../../src/i18n/Translator.js';
import { Colour } from '../../src/replies/colours.js';
import { literal } from '../../src/replies/literal.js';
import { InvalidOptionError } from '../../src/replies/UserError.js';
import { type ParsedDomain, parseDomain } from '../../src/validation/parseDomain.js';
import { parseHostname } from '../../src/validation/parseHostname.js';
import { parseIdentifier } from '../../src/validation/parseIdentifier.js';

// /domain register: a domain with its two name servers and four contact handles, typed as options or,
// without domain and name servers, in the registration form (one Label each for the domain and the name
// servers, the four handles in one, since a modal holds at most five).
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

type Contact = (typeof CONTACTS)[number];

/** The option limits the definition and the form share. */
const REGISTER_LIMITS = { domain: 253, nameServer: 253, handle: 64 } as const;

/** /domain register in the definition (commands/domain.ts). */
export const registerSubcommand = {
  type: ApplicationCommandOptionType.Subcommand,
  name: 'register',
  description: 'Register a domain (without domain and name servers, a form opens)',
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'domain',
      description: 'Domain name to register',
      max_length: REGISTER_LIMITS.domain,
    },
    {
      type: ApplicationCommandOptionType.String,
      name: 'ns1',
      description: 'First name server (ns1.example.net)',
      max_length: REGISTER_LIMITS.nameServer,
    },
    {
      type: ApplicationCommandOptionType.String,
      name: 'ns2',
      description: 'Second name server (ns2.example.net)',
      max_length: REGISTER_LIMITS.nameServer,
    },
    ...CONTACTS.map(
      (contact) =>
        ({
          type: ApplicationCommandOptionType.String,
          name: contact.option,
          description: `${contact.label} handle (default from ${contact.variable})`,
          max_length: REGISTER_LIMITS.handle,
        }) as const,
    ),
  ],
} as const satisfies APIApplicationCommandSubcommandOption;

type RegisterContext = CommandContext<NamesOf<typeof registerSubcommand.options>>;

const parseHandle = (raw: string) =>
  parseIdentifier(raw, {
    maxLength: REGISTER_LIMITS.handle,
    what: message('domain.handle.what'),
    expected: message('domain.handle.expected'),
  });

interface Registration {
  domain: ParsedDomain;
  ns1: string;
  ns2: string;
  ownerC: string;
  adminC: string;
  techC: string;
  zoneC: string;
}

type Handles = Partial<Record<Contact['option'], string>>;

function registration(
  domain: ParsedDomain,
  ns1: string,
  ns2: string,
  handles: Handles,
  { config }: Pick<RegisterContext, 'config'>,
  field: (contact: Contact) => string,
): Registration {
  if (ns1 === ns2)
    throw new InvalidOptionError(
      'ns2',
      message('domain.register.same_ns', { ns1 }),
      message('domain.register.second_ns'),
    );
  // The option and its default in config.contactDefaults share one name.
  const [ownerC, adminC, techC, zoneC] = CONTACTS.map((contact) => {
    const value = handles[contact.option] ?? config.contactDefaults[contact.option];
    if (value === undefined) {
      throw new InvalidOptionError(
        field(contact),
        message('domain.register.contact_missing', { variable: contact.variable }),
        message('domain.register.contact_expected'),
      );
    }
    return value;
  }) as [string, string, string, string];
  return { domain, ns1, ns2, ownerC, adminC, techC, zoneC };
}

/** The contacts field of the form: one `owner: C-1` line per handle, in the options' names. */
const CONTACTS_FIELD = 'contacts';

function contactLines(handles: Handles, defaults: Handles): string {
  return CONTACTS.map((c) => `${c.option}: ${handles[c.option] ?? defaults[c.option] ?? ''}`).join('\n');
}

/** The handles typed in the contacts field; a line it cannot read names itself. */
function parseContactLines(text: string): Handles {
  const handles: Handles = {};
  const refuse = (problem: ReturnType<typeof message>) =>
    new InvalidOptionError(CONTACTS_FIELD, problem, message('domain.register.contacts_expected'));
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const match = /^([a-z]+)\s*[:=]\s*(.*)$/i.exec(line);
    const contact = match && CONTACTS.find((c) => c.option === match[1]?.toLowerCase());
    if (!match || !contact) throw refuse(message('domain.register.contacts_line', { line: literal(line) }));
    if (handles[contact.option] !== undefined)
      throw refuse(message('domain.register.contacts_twice', { contact: contact.option }));
    const raw = match[2] ?? '';
    if (raw === '') continue;
    try {
      handles[contact.option] = validated(contact.option, raw, parseHandle);
    } catch (error) {
      if (!(error instanceof InvalidOptionError)) throw error;
      throw refuse(
        message('domain.register.contact_problem', { contact: contact.option, problem: error.problem }),
      );
    }
  }
  return handles;
}

function registrationForm(
  context: RegisterContext,
  given: Record<string, string | undefined>,
  handles: Handles,
): ModalRequest {
  const { t, config } = context;
  const text = (
    id: 'domain' | 'ns1' | 'ns2',
    label: string,
    description: string,
    max: number,
  ): FormField => ({
    kind: 'text',
    id,
    label,
    description,
    maxLength: max,
    ...(given[id] === undefined ? {} : { value: given[id] }),
  });
  return {
    modal: {
      title: t('domain.register.title'),
      fields: [
        text('domain', t('domain.register.domain'), t('domain.register.form.domain'), REGISTER_LIMITS.domain),
        text('ns1', t('domain.register.form.ns1'), t('domain.register.form.ns'), REGISTER_LIMITS.nameServer),
        text('ns2', t('domain.register.form.ns2'), t('domain.register.form.ns'), REGISTER_LIMITS.nameServer),
        {
          kind: 'text',
          id: CONTACTS_FIELD,
          label: t('domain.register.form.contacts'),
          description: t('domain.register.form.contacts_description'),
          paragraph: true,
          required: false,
          maxLength: CONTACTS.length * (REGISTER_LIMITS.handle + 10),
          value: contactLines(handles, config.contactDefaults),
        },
      ],
    },
    state: {},
  };
}

function parseRegistration(context: RegisterContext): Registration | ModalRequest {
  const { options } = context.interaction;
  // Every option given is checked first, on either path.
  const domain = optionalStringOption(options, 'domain', parseDomain);
  const ns1 = optionalStringOption(options, 'ns1', parseHostname);
  const ns2 = optionalStringOption(options, 'ns2', parseHostname);
  const handles: Handles = Object.fromEntries(
    CONTACTS.map((c) => [c.option, optionalStringOption(options, c.option, parseHandle)] as const).filter(
      ([, value]) => value !== undefined,
    ),
  );
  if (domain && ns1 && ns2) return registration(domain, ns1, ns2, handles, context, (c) => c.option);
  return registrationForm(context, { domain: domain?.unicode, ns1, ns2 }, handles);
}

export const register = change<Registration>({
  tier: 'admin',
  operation: 'createDomain',
  parse: parseRegistration,
  submitForm: (_state, values, context) =>
    registration(
      validated('domain', values.domain ?? '', parseDomain),
      validated('ns1', values.ns1 ?? '', parseHostname),
      validated('ns2', values.ns2 ?? '', parseHostname),
      parseContactLines(values[CONTACTS_FIELD] ?? ''),
      context,
      () => CONTACTS_FIELD,
    ),
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
