import {
  ApplicationCommandOptionType,
  channelMention,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import {
  type CommandContext,
  type ContextOf,
  defineCommand,
  GUILD_ONLY,
  type ReadAnswer,
  read,
} from '../src/discord/CommandModule.js';
import { validated } from '../src/discord/options.js';
import { suggestDomainList } from '../src/discord/suggestions.js';
import { figure, message } from '../src/i18n/Translator.js';
import { Colour } from '../src/replies/colours.js';
import { escapeUserText } from '../src/replies/escapeUserText.js';
import { InvalidOptionError, RefusalError } from '../src/replies/UserError.js';
import { cutText } from '../src/text/cutText.js';
import type { ParsedDomain } from '../src/validation/parseDomain.js';
import { type ParsedDomainList, parseDomainList } from '../src/validation/parseDomainList.js';
import {
  checkAttachment,
  downloadDomainFile,
  FILE_EXPECTED,
  type FileRequest,
  parseDomainFile,
} from '../src/watch/domainFile.js';
import { registryWaitLine } from '../src/watch/renderRegistryWaits.js';
import {
  count,
  type InvalidEntry,
  invalidLines,
  nameList,
  renderWatchLine,
  shown,
} from '../src/watch/renderWatchLines.js';
import {
  type WatchAddData,
  type WatchCheckData,
  type WatchRemoveData,
  watchedDomainData,
} from '../src/watch/watchData.js';
import { calendar } from './watch/calendar.js';
import { listPage, paging, watchOf } from './watch/listPage.js';

/** Names one `domains` option may hold. */
export const MAX_OPTION_DOMAINS = 300;
/** New domains whose expiry `/watch add` lists once it has looked them up. */
const SOONEST_LISTED = 10;

const domainsOption = (description: string) =>
  ({
    type: ApplicationCommandOptionType.String,
    name: 'domains',
    description,
    max_length: 6000,
  }) as const;

export const definition = {
  name: 'watch',
  description: 'The domain watch: scheduled expiry and status alerts',
  ...GUILD_ONLY,
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'add',
      description: 'Watch domains: up to 300 in the option, or a text/CSV file of up to 10,000',
      options: [
        domainsOption('Domain names separated by spaces, commas or new lines'),
        {
          type: ApplicationCommandOptionType.Attachment,
          name: 'file',
          description: 'A .txt or .csv file: one domain per line or in the first column (up to 1 MB)',
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'remove',
      description: 'Stop watching domains',
      options: [
        {
          ...domainsOption('Domain names separated by spaces, commas or new lines'),
          required: true,
          autocomplete: true,
        },
      ],
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'list',
      description: 'The watched domains, soonest expiry first',
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'check',
      description: 'Check every watched domain now and post what is new',
    },
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'calendar',
      description: 'The expiry dates of the watched domains as a calendar file (.ics)',
    },
  ],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

// ---------------------------------------------------------------- add and remove

interface AddRequest {
  list?: ParsedDomainList;
  file?: FileRequest;
}

const parseList = (raw: string) => parseDomainList(raw, MAX_OPTION_DOMAINS);

function parseAdd(context: ContextOf<typeof definition, 'add'>): AddRequest {
  watchOf(context);
  const { options } = context.interaction;
  const raw = options.getString('domains');
  const attachment = options.getAttachment('file');
  if (raw === null && attachment === null) {
    throw new InvalidOptionError(
      'domains',
      message('watch.add.nothing_given'),
      message('watch.add.expected', { max: figure(MAX_OPTION_DOMAINS), file: FILE_EXPECTED }),
    );
  }
  return {
    ...(raw === null ? {} : { list: validated('domains', raw, parseList) }),
    ...(attachment === null
      ? {}
      : { file: checkAttachment(attachment, context.config.discord.apiUrl, context.locale) }),
  };
}

function describeAdd({ list, file }: AddRequest): string {
  const names = list ? list.domains.map((d) => d.ascii).join(' ') : '';
  return cutText([file ? `file ${file.name}` : '', names].filter(Boolean).join(' '), 200);
}

/** Answered in the channel: `context.t` is BOT_LOCALE's. */
async function add(context: CommandContext, request: AddRequest): Promise<ReadAnswer> {
  const { t } = context;
  const watch = watchOf(context);
  const fromFile = request.file ? parseDomainFile(await downloadDomainFile(request.file)) : undefined;
  // The option and the file together: each name once, each invalid entry once.
  const domains = new Map<string, ParsedDomain>();
  const invalidByInput = new Map<string, InvalidEntry>();
  for (const list of [request.list, fromFile]) {
    for (const domain of list?.domains ?? []) {
      if (!domains.has(domain.ascii)) domains.set(domain.ascii, domain);
    }
    for (const { input, error } of list?.invalid ?? []) {
      if (!invalidByInput.has(input)) invalidByInput.set(input, { input, reason: error.problem });
    }
  }
  const invalid = [...invalidByInput.values()];
  const result = await watch.add(
    [...domains.values()].map(({ ascii, unicode }) => ({ domain: ascii, unicode })),
    context.interaction.user.id,
  );
  const { full } = result;
  if (full) {
    const counts = { count: full.adding, watched: figure(full.watched), limit: figure(full.limit) };
    throw new RefusalError(message('watch.add.full', counts), 'watch_full');
  }
  const total = await context.store.watch.count();
  const lines = [
    t('watch.add.summary', {
      added: count(t, result.added.length, 'watch.count.domains'),
      already: figure(result.already.length),
      invalid: figure(invalid.length),
    }),
  ];
  if (request.file) {
    const file = escapeUserText(request.file.name, 100);
    lines.push(
      request.list ? t('watch.add.from_file_and_option', { file }) : t('watch.add.from_file', { file }),
    );
  }
  if (invalid.length > 0) lines.push('', t('watch.invalid_skipped'), ...invalidLines(invalid, t));
  lines.push(
    '',
    t('watch.add.watching', {
      domains: count(t, total, 'watch.count.domains'),
      channel: channelMention(watch.settings.channelId),
    }),
  );
  const data: WatchAddData = {
    added: result.added,
    alreadyWatched: result.already,
    invalid: invalid.map((entry) => ({ input: entry.input, reason: t.render(entry.reason) })),
    watching: total,
  };
  const answer = (more: readonly string[], lookedUp?: WatchAddData['lookedUp']): ReadAnswer => ({
    embeds: [
      {
        title: t('watch.add.title'),
        color: result.added.length > 0 ? Colour.success : Colour.neutral,
        description: cutText([...lines, ...more].join('\n'), 4096),
      },
    ],
    data: lookedUp ? { ...data, lookedUp } : data,
  });
  if (result.added.length === 0) return answer([]);
  // `count` picks the sentence's form ("die 1 Domain, die … ist"), `domains` says it.
  const added = { count: result.added.length, domains: count(t, result.added.length, 'watch.count.domains') };
  return {
    ...answer(['', t('watch.add.looking_up', { ...added, concurrency: figure(watch.settings.concurrency) })]),
    // Alerts among them go out in a digest, once, like any run's.
    later: watch.run('added', result.added).then((summary) => {
      const byExpiry = summary.seen
        .filter((row) => row.expiryDate !== null)
        .sort((a, b) => (a.expiryDate as string).localeCompare(b.expiryDate as string));
      const soonest = byExpiry.slice(0, SOONEST_LISTED).map((row) => renderWatchLine(watch, row, t));
      const unknown = summary.seen.filter((row) => row.expiryDate === null);
      const lookedUp = {
        failed: summary.failed,
        domains: [...byExpiry, ...unknown].map((row) =>
          watchedDomainData(row, watch.daysLeft(row.expiryDate)),
        ),
      };
      const seconds = t.number(summary.durationMs / 1000, {
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
        useGrouping: false,
      });
      return answer(
        [
          '',
          t('watch.add.looked_up', { ...added, seconds, failed: figure(summary.failed) }),
          ...(soonest.length > 0 ? [t('watch.add.soonest'), ...soonest] : []),
        ],
        lookedUp,
      );
    }),
  };
}

function parseRemove(context: ContextOf<typeof definition, 'remove'>): ParsedDomainList {
  watchOf(context);
  return validated('domains', context.interaction.options.getString('domains', true), parseList);
}

/** Answered in the channel: `context.t` is BOT_LOCALE's. */
async function remove(context: CommandContext, list: ParsedDomainList): Promise<ReadAnswer> {
  const { t } = context;
  const watch = watchOf(context);
  const result = await watch.remove(list.domains.map((d) => d.ascii));
  const unicode = new Map(list.domains.map((d) => [d.ascii, d.unicode]));
  const total = await context.store.watch.count();
  const lines = [
    t('watch.remove.summary', {
      removed: count(t, result.removed.length, 'watch.count.domains'),
      notWatched: figure(result.notWatched.length),
      invalid: figure(list.invalid.length),
    }),
  ];
  const names = (domains: readonly string[]) =>
    nameList(
      domains.map((d) => shown(d, unicode.get(d))),
      t,
    );
  if (result.removed.length > 0) {
    lines.push('', t('watch.remove.removed', { names: names(result.removed) }));
  }
  if (result.notWatched.length > 0) {
    lines.push('', t('watch.remove.not_watched', { names: names(result.notWatched) }));
  }
  if (list.invalid.length > 0) {
    lines.push(
      '',
      t('watch.invalid_skipped'),
      ...invalidLines(
        list.invalid.map(({ input, error }) => ({ input, reason: error.problem })),
        t,
      ),
    );
  }
  lines.push('', t('watch.remove.watching', { domains: count(t, total, 'watch.count.domains') }));
  const data: WatchRemoveData = {
    removed: result.removed,
    notWatched: result.notWatched,
    invalid: list.invalid.map(({ input, error }) => ({ input, reason: t.render(error.problem) })),
    watching: total,
  };
  return {
    embeds: [
      {
        title: t('watch.remove.title'),
        color: result.removed.length > 0 ? Colour.success : Colour.neutral,
        description: cutText(lines.join('\n'), 4096),
      },
    ],
    data,
  };
}

// ---------------------------------------------------------------- check

/** Answered in the channel: `context.t` is BOT_LOCALE's. */
async function check(context: CommandContext): Promise<ReadAnswer> {
  const { t } = context;
  const watch = watchOf(context);
  const summary = await watch.run('manual');
  // One decimal, always, as the duration was always shown (`12.0 s` / `12,0 s`).
  const seconds = t.number(summary.durationMs / 1000, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    useGrouping: false,
  });
  const lines = [
    t('watch.check.summary', {
      domains: count(t, summary.checked, 'watch.count.domains'),
      seconds,
      failed: figure(summary.failed),
      alerts: count(t, summary.alerts.length, 'watch.count.alerts'),
    }),
  ];
  if (summary.alerts.length > 0) {
    lines.push(
      t('watch.check.digest', {
        messages: count(t, summary.messages, 'watch.count.messages'),
        channel: channelMention(watch.settings.channelId),
      }),
    );
  } else {
    lines.push(t('watch.check.nothing_new'));
  }
  if (summary.outcome === 'failed') lines.push(t('watch.check.run_failed'));
  // Which registries were waiting when the check's deadline came: their domains are asked next run.
  for (const wait of summary.waits) {
    lines.push(`⏳ ${registryWaitLine(wait, t, watch.settings.timeZone, context.now())}`);
  }
  return {
    embeds: [
      {
        title: t('watch.check.title'),
        color:
          summary.outcome === 'ok'
            ? Colour.success
            : summary.outcome === 'partial'
              ? Colour.warning
              : Colour.danger,
        description: lines.join('\n'),
      },
    ],
    data: {
      checked: summary.checked,
      failed: summary.failed,
      alerts: summary.alerts.length,
      messages: summary.messages,
      durationMs: Math.round(summary.durationMs),
      outcome: summary.outcome,
      registriesWaiting: summary.waits.map((w) => ({
        tlds: w.tlds,
        domains: w.count,
        ...(w.until ? { until: w.until.toISOString() } : {}),
      })),
    } satisfies WatchCheckData,
  };
}

/** The parse of a subcommand without options: it only needs the watch to be on. */
function watchIsOn(context: CommandContext): null {
  watchOf(context);
  return null;
}

export const watch = defineCommand(definition, {
  subcommands: {
    add: read<AddRequest>({
      tier: 'operator',
      parse: parseAdd,
      target: describeAdd,
      run: add,
    }),
    remove: read<ParsedDomainList>({
      tier: 'operator',
      parse: parseRemove,
      target: (list) => cutText(list.domains.map((d) => d.ascii).join(' '), 200),
      run: remove,
      autocomplete: async (context) => (context.watch ? suggestDomainList(context) : []),
    }),
    list: read<number>({
      tier: 'viewer',
      parse: (context) => {
        watchOf(context);
        return 0;
      },
      run: (context) => listPage(context, 0),
    }),
    check: read<null>({ tier: 'operator', parse: watchIsOn, run: check }),
    calendar: read<null>({ tier: 'viewer', parse: watchIsOn, run: calendar }),
  },
  components: { watchlist: paging },
});
