import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  ApplicationCommandOptionType,
  type Attachment,
  ButtonStyle,
  ComponentType,
  channelMention,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  TimestampStyles,
  time,
} from 'discord.js';
import { request } from 'undici';
import {
  type CommandContext,
  type ComponentHandler,
  defineCommand,
  GUILD_ONLY,
  type ReadAnswer,
  read,
} from '../src/discord/CommandModule.js';
import { validated } from '../src/discord/options.js';
import { Colour } from '../src/discord/render/colours.js';
import { escapeUserText } from '../src/discord/render/escapeUserText.js';
import { suggestDomainList } from '../src/discord/suggestions.js';
import { InvalidOptionError, RefusalError, UserError } from '../src/discord/UserError.js';
import type { Locale } from '../src/i18n/locales.js';
import { type Message, message, type Translator, translator } from '../src/i18n/Translator.js';
import type { WatchedDomain } from '../src/store/index.js';
import { cutText } from '../src/text/cutText.js';
import { InvalidValueError } from '../src/validation/InvalidValueError.js';
import { type ParsedDomain, parseDomain } from '../src/validation/parseDomain.js';
import { type ParsedDomainList, parseDomainList } from '../src/validation/parseDomainList.js';
import { refuseHiddenCharacters } from '../src/validation/refuseHiddenCharacters.js';
import type { DomainWatch } from '../src/watch/DomainWatch.js';
import { calendarDate } from '../src/watch/formatDate.js';

/** Names one `domains` option may hold. */
export const MAX_OPTION_DOMAINS = 300;
/** Names one attached file may hold, and its size. */
export const MAX_FILE_DOMAINS = 10_000;
export const MAX_FILE_BYTES = 1_048_576;
/** How long the file may take to download. */
export const FILE_DOWNLOAD_TIMEOUT_MS = 15_000;
export const WATCH_PAGE_SIZE = 10;
/** New domains whose expiry `/watch add` lists once it has looked them up. */
const SOONEST_LISTED = 10;
/** Invalid or not-watched names listed in an answer; the rest are counted. */
const LISTED_NAMES = 15;
const FILE_EXPECTED: Message = message('watch.file.expected', { max: MAX_FILE_DOMAINS });
const TEXT_EXTENSIONS = /\.(txt|csv|tsv|list)$/i;
const TEXT_TYPES = /^(text\/|application\/(csv|x-csv|vnd\.ms-excel)\b)/i;
/** A first row like `domain` or `name` is a CSV header, not a name. */
const HEADER_WORDS = new Set(['domain', 'domains', 'domain name', 'domainname', 'name', 'hostname', 'fqdn']);

const domainsOption = (description: string, required: boolean, autocomplete = false) =>
  ({
    type: ApplicationCommandOptionType.String,
    name: 'domains',
    description,
    ...(required ? { required: true } : {}),
    ...(autocomplete ? { autocomplete: true } : {}),
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
        domainsOption('Domain names separated by spaces, commas or new lines', false),
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
      options: [domainsOption('Domain names separated by spaces, commas or new lines', true, true)],
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
  ],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** The watch, or the ephemeral answer that it is off (before any option is read or API called). */
function watchOf(context: Pick<CommandContext, 'watch'>): DomainWatch {
  if (!context.watch) throw new UserError(message('watch.off'));
  return context.watch;
}

type Counted = 'watch.count.domains' | 'watch.count.runs' | 'watch.count.alerts' | 'watch.count.messages';
const count = (t: Translator, n: number, what: Counted) => t(what, { count: n });

function shown(domain: string, unicode = domain): string {
  return escapeUserText(unicode === domain ? domain : `${unicode} (${domain})`, 100);
}

/** A few names (already shown) in one line, the rest counted. */
function nameList(names: readonly string[], t: Translator): string {
  const listed = names.slice(0, LISTED_NAMES).join(', ');
  const more = names.length - LISTED_NAMES;
  return more > 0 ? t('watch.more_names', { names: listed, more }) : listed;
}

interface InvalidEntry {
  input: string;
  reason: Message;
}

function invalidLines(invalid: readonly InvalidEntry[], t: Translator): string[] {
  const lines = invalid
    .slice(0, LISTED_NAMES)
    .map((entry) => `• ${escapeUserText(entry.input, 80)}: ${escapeUserText(t.render(entry.reason), 120)}`);
  if (invalid.length > LISTED_NAMES) {
    lines.push(t('watch.more_lines', { more: invalid.length - LISTED_NAMES }));
  }
  return lines;
}

// ---------------------------------------------------------------- the file

interface FileRequest {
  url: string;
  name: string;
  size: number;
}

// Discord serves attachments from its CDN; the configured API host covers REST proxies and test doubles.
const ATTACHMENT_HOSTS = ['cdn.discordapp.com', 'media.discordapp.net'];

/**
 * What can be told from the attachment before downloading it: where it is, its size and its kind.
 * Only Discord's own hosts are fetched, so a forged payload cannot make HostOps request anything else.
 * `locale` is the invoker's: a refusal here goes only to them.
 */
function checkAttachment(attachment: Attachment, discordApiUrl: string, locale: Locale): FileRequest {
  const name = attachment.name;
  const host = URL.canParse(attachment.url) ? new URL(attachment.url).hostname : '';
  if (![...ATTACHMENT_HOSTS, new URL(discordApiUrl).hostname].includes(host)) {
    throw new InvalidOptionError('file', message('watch.file.not_discord', { name }), FILE_EXPECTED);
  }
  const type = attachment.contentType ?? '';
  const textual = TEXT_TYPES.test(type) || (type === '' && TEXT_EXTENSIONS.test(name));
  if (!textual && !TEXT_EXTENSIONS.test(name)) {
    throw new InvalidOptionError(
      'file',
      message('watch.file.not_text', { name, type: type || message('watch.file.unknown_type') }),
      FILE_EXPECTED,
    );
  }
  if (attachment.size > MAX_FILE_BYTES) {
    // One decimal, always (`2.0` / `2,0`), as the size was always shown.
    const size = translator(locale).number(attachment.size / 1_048_576, {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
      useGrouping: false,
    });
    throw new InvalidOptionError('file', message('watch.file.too_big', { name, size }), FILE_EXPECTED);
  }
  return { url: attachment.url, name, size: attachment.size };
}

const tooLarge = (file: FileRequest) =>
  new UserError(
    message('watch.file.larger_than_limit', {
      name: escapeUserText(file.name, 100),
      expected: FILE_EXPECTED,
    }),
  );

/** Downloads the attachment, never more than 1 MB and never for longer than the timeout. */
async function download(file: FileRequest): Promise<string> {
  const signal = AbortSignal.timeout(FILE_DOWNLOAD_TIMEOUT_MS);
  let body: Buffer;
  try {
    const response = await request(file.url, { method: 'GET', signal });
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump();
      throw new UserError(
        message('watch.file.download_status', {
          name: escapeUserText(file.name, 100),
          status: String(response.statusCode),
        }),
      );
    }
    const length = Number(response.headers['content-length']);
    if (Number.isFinite(length) && length > MAX_FILE_BYTES) {
      response.body.destroy();
      throw tooLarge(file);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of response.body) {
      const buffer = chunk as Buffer;
      received += buffer.length;
      if (received > MAX_FILE_BYTES) {
        response.body.destroy();
        throw tooLarge(file);
      }
      chunks.push(buffer);
    }
    body = Buffer.concat(chunks);
  } catch (error) {
    if (error instanceof UserError) throw error;
    const why = signal.aborted
      ? message('watch.file.download_slow', { seconds: FILE_DOWNLOAD_TIMEOUT_MS / 1000 })
      : message('watch.file.download_error');
    throw new UserError(message('watch.file.download_failed', { name: escapeUserText(file.name, 100), why }));
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    if (text.includes('\0')) throw new Error('NUL in text');
    return text;
  } catch {
    throw new UserError(
      message('watch.file.not_utf8', { name: escapeUserText(file.name, 100), expected: FILE_EXPECTED }),
    );
  }
}

/** The first field of a CSV or text line: quoted or not, up to the first comma, semicolon or tab. */
function firstColumn(line: string): string {
  const trimmed = line.trim();
  if (trimmed.startsWith('"')) {
    const end = trimmed.indexOf('"', 1);
    return end === -1 ? trimmed.slice(1) : trimmed.slice(1, end);
  }
  return trimmed.split(/[,;\t]/, 1)[0] ?? '';
}

/** One domain per line or in the first column; blank lines, `#` comments and a header row are skipped. */
export function parseDomainFile(text: string, max = MAX_FILE_DOMAINS): ParsedDomainList {
  const domains = new Map<string, ParsedDomain>();
  const invalid = new Map<string, { input: string; error: InvalidValueError }>();
  let first = true;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const entry = firstColumn(line).trim();
    if (entry === '' || entry.startsWith('#')) continue;
    const header = first && HEADER_WORDS.has(entry.toLowerCase());
    first = false;
    if (header) continue;
    try {
      const domain = parseDomain(refuseHiddenCharacters(entry));
      if (!domains.has(domain.ascii)) domains.set(domain.ascii, domain);
    } catch (error) {
      if (!(error instanceof InvalidValueError)) throw error;
      if (!invalid.has(entry)) invalid.set(entry, { input: entry, error });
    }
    if (domains.size + invalid.size > max) {
      throw new UserError(message('watch.file.too_many', { max, expected: FILE_EXPECTED }));
    }
  }
  if (domains.size + invalid.size === 0) {
    throw new UserError(message('watch.file.empty', { expected: FILE_EXPECTED }));
  }
  return { domains: [...domains.values()], invalid: [...invalid.values()] };
}

// ---------------------------------------------------------------- add and remove

interface AddRequest {
  list?: ParsedDomainList;
  file?: FileRequest;
}

const parseList = (raw: string) => parseDomainList(raw, MAX_OPTION_DOMAINS);

function parseAdd(context: CommandContext): AddRequest {
  watchOf(context);
  const { options } = context.interaction;
  const raw = options.getString('domains');
  const attachment = options.getAttachment('file');
  if (raw === null && attachment === null) {
    throw new InvalidOptionError(
      'domains',
      message('watch.add.nothing_given'),
      message('watch.add.expected', { max: MAX_OPTION_DOMAINS, file: FILE_EXPECTED }),
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
  const fromFile = request.file ? parseDomainFile(await download(request.file)) : undefined;
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
  if (result.full) throw new RefusalError(message('watch.add.full', result.full), 'watch_full');
  const total = await context.store.watch.count();
  const lines = [
    t('watch.add.summary', {
      added: count(t, result.added.length, 'watch.count.domains'),
      already: result.already.length,
      invalid: invalid.length,
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
  const answer = (more: readonly string[]): ReadAnswer => ({
    embeds: [
      {
        title: t('watch.add.title'),
        color: result.added.length > 0 ? Colour.success : Colour.neutral,
        description: cutText([...lines, ...more].join('\n'), 4096),
      },
    ],
  });
  if (result.added.length === 0) return answer([]);
  const added = count(t, result.added.length, 'watch.count.domains');
  return {
    ...answer(['', t('watch.add.looking_up', { domains: added, concurrency: watch.settings.concurrency })]),
    // Alerts among them go out in a digest, once, like any run's.
    later: watch.run('added', result.added).then((summary) => {
      const soonest = summary.seen
        .filter((row) => row.expiryDate !== null)
        .sort((a, b) => (a.expiryDate as string).localeCompare(b.expiryDate as string))
        .slice(0, SOONEST_LISTED)
        .map((row) => renderWatchLine(watch, row, t));
      const seconds = t.number(summary.durationMs / 1000, {
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
        useGrouping: false,
      });
      return answer([
        '',
        t('watch.add.looked_up', { domains: added, seconds, failed: summary.failed }),
        ...(soonest.length > 0 ? [t('watch.add.soonest'), ...soonest] : []),
      ]);
    }),
  };
}

function parseRemove(context: CommandContext): ParsedDomainList {
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
      notWatched: result.notWatched.length,
      invalid: list.invalid.length,
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
  return {
    embeds: [
      {
        title: t('watch.remove.title'),
        color: result.removed.length > 0 ? Colour.success : Colour.neutral,
        description: cutText(lines.join('\n'), 4096),
      },
    ],
  };
}

// ---------------------------------------------------------------- list

/** What the last run saw that needs attention, in words. */
export function watchFlags(row: WatchedDomain, t: Translator): string[] {
  const flags: string[] = [];
  if (row.status === 'not_found') flags.push(t('watch.flag.not_found'));
  if (row.active === false) flags.push(t('watch.flag.inactive'));
  if (row.expired === true) flags.push(t('watch.flag.expired'));
  if (row.transferredAway === true) flags.push(t('watch.flag.transferred_away'));
  if (row.failures > 0) {
    flags.push(t('watch.list.failing', { runs: count(t, row.failures, 'watch.count.runs') }));
  }
  return flags;
}

function daysText(days: number | null, row: WatchedDomain, t: Translator): string {
  if (days === null) {
    if (row.status === 'new') return t('watch.list.not_checked_yet');
    return row.status === 'ok' ? t('watch.list.no_expiry_date') : t('watch.list.unknown');
  }
  // As always shown: no grouping (`3650 d`).
  return t('watch.list.days', { days: t.number(days, { useGrouping: false }) });
}

export function renderWatchLine(
  watch: Pick<DomainWatch, 'daysLeft'>,
  row: WatchedDomain,
  t: Translator,
): string {
  const flags = watchFlags(row, t);
  const parts = [
    daysText(watch.daysLeft(row.expiryDate), row, t),
    shown(row.domain, row.unicode),
    ...(row.expiryDate ? [calendarDate(row.expiryDate, t)] : []),
    ...(flags.length > 0 ? [`⚠️ ${flags.join(', ')}`] : []),
    row.checkedAt
      ? t('watch.list.checked', { when: time(row.checkedAt, TimestampStyles.RelativeTime) })
      : t('watch.list.never_checked'),
  ];
  return parts.join(' · ');
}

function pageButton(offset: number, label: string, disabled: boolean): APIButtonComponent {
  return {
    type: ComponentType.Button,
    style: ButtonStyle.Secondary,
    custom_id: `hostops:watchlist:${offset}`,
    label,
    disabled,
  };
}

/** In the channel (and its buttons): `context.t` is BOT_LOCALE's. */
async function listPage(
  context: Pick<CommandContext, 'watch' | 'store' | 't'>,
  requested: number,
): Promise<ReadAnswer> {
  const { t } = context;
  const watch = watchOf(context);
  let offset = Math.max(0, requested);
  let result = await context.store.watch.list({ limit: WATCH_PAGE_SIZE, offset });
  // Domains removed since the button was drawn: show the last page there still is.
  if (result.rows.length === 0 && offset > 0 && result.total > 0) {
    offset = Math.floor((result.total - 1) / WATCH_PAGE_SIZE) * WATCH_PAGE_SIZE;
    result = await context.store.watch.list({ limit: WATCH_PAGE_SIZE, offset });
  }
  if (result.rows.length === 0) {
    return {
      embeds: [
        {
          title: t('watch.list.title'),
          color: Colour.neutral,
          description: t('watch.list.empty'),
        },
      ],
      components: [],
    };
  }
  const last = offset + result.rows.length;
  const embed: APIEmbed = {
    title: t('watch.list.title'),
    color: Colour.info,
    description: cutText(
      `${t('watch.list.intro', { channel: channelMention(watch.settings.channelId) })}\n\n${result.rows
        .map((row) => renderWatchLine(watch, row, t))
        .join('\n')}`,
      4096,
    ),
    footer: { text: t('watch.list.footer', { first: offset + 1, last, total: result.total }) },
  };
  const row: APIActionRowComponent<APIButtonComponent> = {
    type: ComponentType.ActionRow,
    components: [
      pageButton(Math.max(0, offset - WATCH_PAGE_SIZE), t('watch.list.previous'), offset === 0),
      pageButton(offset + WATCH_PAGE_SIZE, t('watch.list.next'), last >= result.total),
    ],
  };
  return { embeds: [embed], components: [row] };
}

const paging: ComponentHandler = {
  tier: 'viewer',
  update: async (context) => {
    const offset = /^\d{1,9}$/.test(context.args) ? Number(context.args) : undefined;
    if (offset === undefined) throw new UserError(message('watch.list.old_button'));
    return listPage(context, offset);
  },
};

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
      failed: summary.failed,
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
  };
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
    check: read<null>({
      tier: 'operator',
      parse: (context) => {
        watchOf(context);
        return null;
      },
      run: check,
    }),
  },
  components: { watchlist: paging },
});
