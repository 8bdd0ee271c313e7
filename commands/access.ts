import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { configGrants } from '../src/access/AccessPolicy.js';
import { memberRoleIds } from '../src/access/tiers.js';
import { MAX_ELEVATION_H } from '../src/configValues.js';
import { change } from '../src/discord/ChangeSpec.js';
import { defineCommand, GUILD_ONLY, read } from '../src/discord/CommandModule.js';
import { optionalStringOption, stringOption, validated } from '../src/discord/options.js';
import { message, type Translator } from '../src/i18n/Translator.js';
import { Colour } from '../src/replies/colours.js';
import { RefusalError, UserError } from '../src/replies/UserError.js';
import type { Grant } from '../src/store/index.js';
import { explainAnswer } from './access/explain.js';
import { accessExport, accessImport } from './access/exportImport.js';
import {
  commandPaths,
  type GrantParams,
  grantFields,
  grantLine,
  grantOf,
  newGrantId,
  paramsOf,
  parsePatterns,
  parseSubject,
  parseUntil,
  parseWhat,
} from './access/grantParams.js';
import { request } from './access/request.js';

const who = {
  type: ApplicationCommandOptionType.Mentionable,
  name: 'who',
  description: 'A role or a member',
} as const;

export const definition = {
  name: 'access',
  description: 'Grants: who may run which commands on which domains, servers and addresses',
  ...GUILD_ONLY,
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'grant',
      description: 'Grant a role or a member commands or a tier on resource patterns',
      options: [
        { ...who, required: true },
        {
          type: ApplicationCommandOptionType.String,
          name: 'what',
          description: 'Command paths or a tier, comma-separated: domain dns, server rdns · operator',
          required: true,
          max_length: 300,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'on',
          description: 'Patterns: *.acme.example server:100-199 ip:203.0.113.0/24 or *',
          required: true,
          max_length: 1000,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'until',
          description: 'When it ends: 8h, 2d or 2026-12-01T18:00Z (default: until revoked)',
          max_length: 40,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'revoke',
      description: 'Revoke a grant (or end an elevation) by its id',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'id',
          description: 'The grant id (g…)',
          required: true,
          max_length: 20,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'request',
      description: 'Ask for rights on resources for some hours, approved by someone who holds them',
      options: [
        {
          type: ApplicationCommandOptionType.String,
          name: 'what',
          description: 'Command paths or a tier, comma-separated: domain dns, server rdns · operator',
          required: true,
          max_length: 300,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'on',
          description: 'Patterns: *.acme.example server:100-199 ip:203.0.113.0/24',
          required: true,
          max_length: 1000,
        },
        {
          type: ApplicationCommandOptionType.Integer,
          name: 'hours',
          description: 'For how many hours (at most ACCESS_MAX_ELEVATION_H)',
          required: true,
          min_value: 1,
          max_value: MAX_ELEVATION_H,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'why',
          description: 'Why you need it (shown to the approvers)',
          required: true,
          max_length: 300,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'list',
      description: 'The grants in force, of everyone or of one role or member',
      options: [who],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'explain',
      description: 'Whether a member may run a command (on a target), and by which grant',
      options: [
        { type: ApplicationCommandOptionType.User, name: 'user', description: 'The member', required: true },
        {
          type: ApplicationCommandOptionType.String,
          name: 'command',
          description: 'A command path: domain dns',
          required: true,
          max_length: 60,
        },
        {
          type: ApplicationCommandOptionType.String,
          name: 'target',
          description: 'A domain, server:42 or an IP address',
          max_length: 260,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'export',
      description: 'The grants as a YAML file, to review and keep in git',
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'import',
      description: 'A YAML file of grants: shows the difference, applies it on Confirm',
      options: [
        {
          type: ApplicationCommandOptionType.Attachment,
          name: 'file',
          description: 'A YAML file as /access export gives (up to 256 KB)',
          required: true,
        },
      ],
    },
  ],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** The access changes write the store: their `send` never reaches the provider. */
const recorded = (
  title: string,
  line: string,
  channelLine: string,
  requester: string,
  channelT: Translator,
) => ({
  private: { embeds: [{ title, color: Colour.success, description: line }] },
  public: { content: channelT('access.record', { requester, line: channelLine }) },
});

export const access = defineCommand(definition, {
  subcommands: {
    grant: change({
      tier: 'admin',
      operation: 'accessGrant',
      parse: ({ interaction, commands, now }): GrantParams => {
        const raw = interaction.options.get('who');
        const subject = validated('who', String(raw?.value ?? ''), (value) =>
          raw?.role
            ? { kind: 'role' as const, id: raw.role.id }
            : raw?.user
              ? { kind: 'user' as const, id: raw.user.id }
              : parseSubject(value, (id) => interaction.guild?.roles.cache.has(id) ?? false),
        );
        return {
          id: newGrantId(),
          subject,
          what: stringOption(interaction.options, 'what', (value) =>
            parseWhat(value, commandPaths(commands)),
          ),
          patterns: stringOption(interaction.options, 'on', parsePatterns),
          until:
            optionalStringOption(interaction.options, 'until', (value) => parseUntil(value, now())) ?? null,
          by: interaction.user.id,
        };
      },
      target: ({ subject }) => `${subject.kind}:${subject.id}`,
      preview: (params, t) => ({
        title: t('access.grant.title'),
        fields: grantFields(params, t, t('access.grant.in_force')),
      }),
      send: async (params, { store, now, t, channelT, requester }) => {
        await store.grants.add(grantOf(params, now()));
        const line = (words: typeof t) => grantLine(grantOf(params, new Date(0)), words);
        return {
          ...recorded(t('access.grant.done'), line(t), line(channelT), requester, channelT),
          result: { grant: params.id },
        };
      },
    }),
    revoke: change({
      tier: 'admin',
      operation: 'accessRevoke',
      parse: ({ interaction }): { id: string; grant: GrantParams | null } => ({
        id: stringOption(interaction.options, 'id', (value) => value.trim().toLowerCase()),
        grant: null,
      }),
      precheck: async (params, { store, config }) => {
        if (configGrants(config.access).some((g) => g.id.toLowerCase() === params.id)) {
          throw new RefusalError(
            message('access.revoke.configured', { id: params.id.toUpperCase() }),
            'tier',
          );
        }
        const grant = (await store.grants.load()).grants.find((g) => g.id === params.id);
        if (!grant) throw new UserError(message('access.revoke.unknown', { id: params.id }));
        return { ...params, grant: paramsOf(grant) };
      },
      target: ({ id }) => id,
      preview: ({ id, grant }, t) => ({
        title: t('access.revoke.title'),
        fields: grant
          ? grantFields(grant, t, t('access.revoke.in_force'))
          : [{ name: t('access.field.id'), value: `\`${id}\`` }],
      }),
      send: async ({ id }, { store, t, channelT, requester }) => {
        const revoked = await store.grants.revoke(id);
        if (!revoked) throw new UserError(message('access.revoke.unknown', { id }));
        return {
          ...recorded(
            t('access.revoke.done'),
            grantLine(revoked, t),
            grantLine(revoked, channelT),
            requester,
            channelT,
          ),
          result: { revoked: id },
          ...(revoked.requestId ? { note: 'elevation ended (revoked)' } : {}),
        };
      },
    }),
    request,
    list: read({
      tier: 'admin',
      ephemeral: true,
      parse: ({ interaction }) => interaction.options.get('who')?.value,
      run: async ({ store, config, t }, whoValue) => {
        const { grants } = await store.grants.load();
        const all: Grant[] = [...configGrants(config.access), ...grants];
        // A mention's id; the console says `role:<id>` or `user:<id>`.
        const id = String(whoValue).replace(/^(role|user):/, '');
        const shown = whoValue === undefined ? all : all.filter((g) => g.subject.id === id);
        const lines = shown.map((g) => grantLine(g, t));
        return {
          embeds: [
            {
              title: t('access.list.title'),
              color: Colour.info,
              description: lines.length > 0 ? lines.join('\n').slice(0, 4000) : t('access.list.none'),
            },
          ],
          data: {
            grants: shown.map((g) => ({
              ...g,
              until: g.until?.toISOString() ?? null,
              createdAt: g.createdAt.toISOString(),
            })),
          },
        };
      },
    }),
    explain: read({
      tier: 'admin',
      ephemeral: true,
      parse: ({ interaction }) => {
        const user = interaction.options.get('user');
        return {
          userId: String(user?.value ?? ''),
          roleIds: user?.member ? memberRoleIds({ member: user.member as never }) : undefined,
          command: stringOption(interaction.options, 'command', (value) =>
            value.trim().replace(/^\//, '').replace(/\s+/g, ' ').toLowerCase(),
          ),
          target: optionalStringOption(interaction.options, 'target', (value) => value.trim()),
        };
      },
      run: (context, input) => explainAnswer(context, input),
    }),
    export: accessExport,
    import: accessImport,
  },
});
