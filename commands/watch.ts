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
  type CommandModule,
  type ComponentHandler,
  GUILD_ONLY,
  type ReadAnswer,
  read,
} from '../src/discord/CommandModule.js';
import { validated } from '../src/discord/options.js';
import { Colour } from '../src/discord/render/colours.js';
import { escapeUserText } from '../src/discord/render/escapeUserText.js';
import { suggestDomainList } from '../src/discord/suggestions.js';
import { InvalidOptionError, UserError } from '../src/discord/UserError.js';
import type { WatchedDomain } from '../src/store/index.js';
import { cutText } from '../src/text/cutText.js';
import { InvalidValueError } from '../src/validation/InvalidValueError.js';
import { type ParsedDomain, parseDomain } from '../src/validation/parseDomain.js';
import { type ParsedDomainList, parseDomainList } from '../src/validation/parseDomainList.js';
import { refuseHiddenCharacters } from '../src/validation/refuseHiddenCharacters.js';
import type { DomainWatch } from '../src/watch/DomainWatch.js';

/** Names one `domains` option may hold. */
export const MAX_OPTION_DOMAINS = 300;
/** Names one attached file may hold, and its size. */
export const MAX_FILE_DOMAINS = 10_000;
export const MAX_FILE_BYTES = 1_048_576;
/** How long the file may take to download. */
export const FILE_DOWNLOAD_TIMEOUT_MS = 15_000;
export const WATCH_PAGE_SIZE = 10;
/** Invalid or not-watched names listed in an answer; the rest are counted. */
const LISTED_NAMES = 15;
const WATCH_OFF =
  'The domain watch is off: set `WATCH_CHANNEL_ID` (the channel for its alerts) and restart HostOps to turn it on.';
const FILE_EXPECTED = `a text or CSV file (.txt, .csv) with one domain per line or in the first column, at most ${MAX_FILE_DOMAINS.toLocaleString('en-US')} names and 1 MB`;
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
  if (!context.watch) throw new UserError(WATCH_OFF);
  return context.watch;
}

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function shown(domain: string, unicode = domain): string {
  return escapeUserText(unicode === domain ? domain : `${unicode} (${domain})`, 100);
}

/** A few names (already shown) in one line, the rest counted. */
function nameList(names: readonly string[]): string {
  const listed = names.slice(0, LISTED_NAMES);
  const more = names.length - listed.length;
  return `${listed.join(', ')}${more > 0 ? ` and ${more.toLocaleString('en-US')} more` : ''}`;
}

interface InvalidEntry {
  input: string;
  reason: string;
}

function invalidLines(invalid: readonly InvalidEntry[]): string[] {
  const lines = invalid
    .slice(0, LISTED_NAMES)
    .map((entry) => `• ${escapeUserText(entry.input, 80)}: ${escapeUserText(entry.reason, 120)}`);
  if (invalid.length > LISTED_NAMES) {
    lines.push(`… and ${(invalid.length - LISTED_NAMES).toLocaleString('en-US')} more`);
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
 */
function checkAttachment(attachment: Attachment, discordApiUrl: string): FileRequest {
  const name = attachment.name;
  const host = URL.canParse(attachment.url) ? new URL(attachment.url).hostname : '';
  if (![...ATTACHMENT_HOSTS, new URL(discordApiUrl).hostname].includes(host)) {
    throw new InvalidOptionError('file', `${name} is not stored by Discord`, FILE_EXPECTED);
  }
  const type = attachment.contentType ?? '';
  const textual = TEXT_TYPES.test(type) || (type === '' && TEXT_EXTENSIONS.test(name));
  if (!textual && !TEXT_EXTENSIONS.test(name)) {
    throw new InvalidOptionError(
      'file',
      `${name} is not a text or CSV file (${type || 'unknown type'})`,
      FILE_EXPECTED,
    );
  }
  if (attachment.size > MAX_FILE_BYTES) {
    throw new InvalidOptionError(
      'file',
      `${name} is ${(attachment.size / 1_048_576).toFixed(1)} MB, larger than 1 MB`,
      FILE_EXPECTED,
    );
  }
  return { url: attachment.url, name, size: attachment.size };
}

const tooLarge = (file: FileRequest) =>
  new UserError(
    `\`file\`: ${escapeUserText(file.name, 100)} is larger than 1 MB. Expected ${FILE_EXPECTED}.`,
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
        `Could not download ${escapeUserText(file.name, 100)} from Discord (HTTP ${response.statusCode}). Attach it again.`,
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
      ? `it took longer than ${FILE_DOWNLOAD_TIMEOUT_MS / 1000} s`
      : 'the download failed';
    throw new UserError(
      `Could not download ${escapeUserText(file.name, 100)} from Discord: ${why}. Attach it again.`,
    );
  }
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    if (text.includes('\0')) throw new Error('NUL in text');
    return text;
  } catch {
    throw new UserError(
      `\`file\`: ${escapeUserText(file.name, 100)} is not UTF-8 text. Expected ${FILE_EXPECTED}.`,
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
      throw new UserError(
        `\`file\`: lists more than ${max.toLocaleString('en-US')} names. Expected ${FILE_EXPECTED}; split it into several files.`,
      );
    }
  }
  if (domains.size + invalid.size === 0) {
    throw new UserError(`\`file\`: holds no domain names. Expected ${FILE_EXPECTED}.`);
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
      'neither domain names nor a file given',
      `up to ${MAX_OPTION_DOMAINS} domain names, or a \`file\`: ${FILE_EXPECTED}`,
    );
  }
  return {
    ...(raw === null ? {} : { list: validated('domains', raw, parseList) }),
    ...(attachment === null ? {} : { file: checkAttachment(attachment, context.config.discord.apiUrl) }),
  };
}

function describeAdd({ list, file }: AddRequest): string {
  const names = list ? list.domains.map((d) => d.ascii).join(' ') : '';
  return cutText([file ? `file ${file.name}` : '', names].filter(Boolean).join(' '), 200);
}

async function add(context: CommandContext, request: AddRequest): Promise<ReadAnswer> {
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
      if (!invalidByInput.has(input)) invalidByInput.set(input, { input, reason: error.message });
    }
  }
  const invalid = [...invalidByInput.values()];
  const result = await watch.add(
    [...domains.values()].map(({ ascii, unicode }) => ({ domain: ascii, unicode })),
    context.interaction.user.id,
  );
  const total = await context.store.watch.count();
  const lines = [
    `**${count(result.added.length, 'domain')}** added, ${result.already.length.toLocaleString('en-US')} already watched, ${invalid.length.toLocaleString('en-US')} invalid.`,
  ];
  if (request.file) {
    const from = escapeUserText(request.file.name, 100);
    lines.push(request.list ? `From ${from} and the \`domains\` option.` : `From ${from}.`);
  }
  if (invalid.length > 0) lines.push('', '**Invalid, skipped:**', ...invalidLines(invalid));
  lines.push(
    '',
    `Watching ${count(total, 'domain')} in all; alerts go to ${channelMention(watch.settings.channelId)}.`,
  );
  return {
    embeds: [
      {
        title: 'Domain watch: added',
        color: result.added.length > 0 ? Colour.success : Colour.neutral,
        description: cutText(lines.join('\n'), 4096),
      },
    ],
  };
}

function parseRemove(context: CommandContext): ParsedDomainList {
  watchOf(context);
  return validated('domains', context.interaction.options.getString('domains', true), parseList);
}

async function remove(context: CommandContext, list: ParsedDomainList): Promise<ReadAnswer> {
  const watch = watchOf(context);
  const result = await watch.remove(list.domains.map((d) => d.ascii));
  const unicode = new Map(list.domains.map((d) => [d.ascii, d.unicode]));
  const total = await context.store.watch.count();
  const lines = [
    `**${count(result.removed.length, 'domain')}** removed, ${result.notWatched.length.toLocaleString('en-US')} not watched, ${list.invalid.length.toLocaleString('en-US')} invalid.`,
  ];
  if (result.removed.length > 0) {
    lines.push('', `**Removed:** ${nameList(result.removed.map((d) => shown(d, unicode.get(d))))}`);
  }
  if (result.notWatched.length > 0) {
    lines.push('', `**Not watched:** ${nameList(result.notWatched.map((d) => shown(d, unicode.get(d))))}`);
  }
  if (list.invalid.length > 0) {
    lines.push(
      '',
      '**Invalid, skipped:**',
      ...invalidLines(list.invalid.map(({ input, error }) => ({ input, reason: error.message }))),
    );
  }
  lines.push('', `Watching ${count(total, 'domain')} in all.`);
  return {
    embeds: [
      {
        title: 'Domain watch: removed',
        color: result.removed.length > 0 ? Colour.success : Colour.neutral,
        description: cutText(lines.join('\n'), 4096),
      },
    ],
  };
}

// ---------------------------------------------------------------- list

/** What the last run saw that needs attention, in words. */
export function watchFlags(row: WatchedDomain): string[] {
  const flags: string[] = [];
  if (row.status === 'not_found') flags.push('not found');
  if (row.active === false) flags.push('inactive');
  if (row.expired === true) flags.push('expired');
  if (row.transferredAway === true) flags.push('transferred away');
  if (row.failures > 0) flags.push(`failing (${count(row.failures, 'run')})`);
  return flags;
}

function daysText(days: number | null, row: WatchedDomain): string {
  if (days === null) {
    if (row.status === 'new') return '**not checked yet**';
    return row.status === 'ok' ? '**no expiry date**' : '**unknown**';
  }
  return `**${days} d**`;
}

export function renderWatchLine(watch: Pick<DomainWatch, 'daysLeft'>, row: WatchedDomain): string {
  const flags = watchFlags(row);
  const parts = [
    daysText(watch.daysLeft(row.expiryDate), row),
    shown(row.domain, row.unicode),
    ...(row.expiryDate ? [row.expiryDate] : []),
    ...(flags.length > 0 ? [`⚠️ ${flags.join(', ')}`] : []),
    row.checkedAt ? `checked ${time(row.checkedAt, TimestampStyles.RelativeTime)}` : 'never checked',
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

async function listPage(
  context: Pick<CommandContext, 'watch' | 'store'>,
  requested: number,
): Promise<ReadAnswer> {
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
          title: 'Watched domains',
          color: Colour.neutral,
          description: 'No domain is watched. Add some with `/watch add`.',
        },
      ],
      components: [],
    };
  }
  const last = offset + result.rows.length;
  const embed: APIEmbed = {
    title: 'Watched domains',
    color: Colour.info,
    description: cutText(
      `Soonest expiry first; alerts go to ${channelMention(watch.settings.channelId)}.\n\n${result.rows
        .map((row) => renderWatchLine(watch, row))
        .join('\n')}`,
      4096,
    ),
    footer: {
      text: `Domains ${(offset + 1).toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${result.total.toLocaleString('en-US')}`,
    },
  };
  const row: APIActionRowComponent<APIButtonComponent> = {
    type: ComponentType.ActionRow,
    components: [
      pageButton(Math.max(0, offset - WATCH_PAGE_SIZE), '◀ Previous', offset === 0),
      pageButton(offset + WATCH_PAGE_SIZE, 'Next ▶', last >= result.total),
    ],
  };
  return { embeds: [embed], components: [row] };
}

const paging: ComponentHandler = {
  tier: 'viewer',
  update: async (context) => {
    const offset = /^\d{1,9}$/.test(context.args) ? Number(context.args) : undefined;
    if (offset === undefined)
      throw new UserError('This button belongs to an older answer. Run `/watch list` again.');
    return listPage(context, offset);
  },
};

// ---------------------------------------------------------------- check

async function check(context: CommandContext): Promise<ReadAnswer> {
  const watch = watchOf(context);
  const summary = await watch.run('manual');
  const seconds = (summary.durationMs / 1000).toFixed(1);
  const lines = [
    `Checked **${count(summary.checked, 'domain')}** in ${seconds} s: ${summary.failed.toLocaleString('en-US')} failed, ${count(summary.alerts.length, 'alert')} sent.`,
  ];
  if (summary.alerts.length > 0) {
    lines.push(
      `The digest (${count(summary.messages, 'message')}) is in ${channelMention(watch.settings.channelId)}.`,
    );
  } else {
    lines.push('Nothing new to report.');
  }
  if (summary.outcome === 'failed') lines.push('⚠️ The run failed: see the log for why.');
  return {
    embeds: [
      {
        title: 'Domain watch: checked',
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

export const watch: CommandModule = {
  definition,
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
};
