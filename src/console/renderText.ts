import type { APIEmbed } from 'discord.js';
import { type Translator, translator } from '../i18n/Translator.js';
import { Colour } from '../replies/colours.js';
import { inConsoleWords } from './consoleWords.js';

/** How a terminal shows what would have been a Discord message. */
export interface RenderOptions {
  /** ANSI colours and bold; off for NO_COLOR, pipes and dumb terminals. */
  colour: boolean;
  /** IANA zone for timestamps (default: the process's local zone). */
  timeZone?: string;
  /** Display names for mentioned ids: the console user, the synthetic roles and channel. */
  names?: {
    users?: Record<string, string>;
    roles?: Record<string, string>;
    channels?: Record<string, string>;
  };
  /** For relative times ("in 2 minutes"); tests pin it. */
  now?: () => Date;
  /** The console's language: labels, dates and relative times (default English). */
  t?: Translator;
  /** What to type for a button, as the hint under a message says it (default: its label, lower case). */
  buttonWord?: (button: { label: string; customId: string }) => string;
}

const english = translator('en');

/** A date locale per language: English keeps the day-month-year order of `en-GB`. */
function dateLocale(options: RenderOptions): string {
  const locale = (options.t ?? english).locale;
  return locale === 'en' ? 'en-GB' : locale;
}

/** A message body as the router sends it (files already attachments or still text files). */
export interface MessageLike {
  content?: string | null;
  embeds?: readonly APIEmbed[];
  components?: readonly {
    components?: readonly { label?: string; custom_id?: string; disabled?: boolean; url?: string }[];
  }[];
  files?: readonly { name: string; attachment?: unknown; content?: string }[];
}

const ANSI = {
  reset: '\u001b[0m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  italic: '\u001b[3m',
  red: '\u001b[31m',
  green: '\u001b[32m',
  yellow: '\u001b[33m',
  blue: '\u001b[34m',
  cyan: '\u001b[36m',
  grey: '\u001b[90m',
  orange: '\u001b[38;5;208m',
} as const;

/** The embed's colour as a status word (plain) or a coloured marker. */
type StatusWord = `console.status.${'ok' | 'error' | 'warning' | 'attention' | 'note' | 'info'}`;
const STATUS: Record<number, { word: StatusWord; mark: string; ansi: string }> = {
  [Colour.success]: { word: 'console.status.ok', mark: '●', ansi: ANSI.green },
  [Colour.danger]: { word: 'console.status.error', mark: '●', ansi: ANSI.red },
  [Colour.warning]: { word: 'console.status.warning', mark: '●', ansi: ANSI.yellow },
  [Colour.orange]: { word: 'console.status.attention', mark: '●', ansi: ANSI.orange },
  [Colour.neutral]: { word: 'console.status.note', mark: '●', ansi: ANSI.grey },
  [Colour.info]: { word: 'console.status.info', mark: '●', ansi: ANSI.blue },
};

/** Colour is used when the stream is a terminal that has colours and NO_COLOR is not set. */
export function supportsColour(
  stream: { isTTY?: boolean; hasColors?: () => boolean },
  env: Record<string, string | undefined> = process.env,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (!stream.isTTY || env.TERM === 'dumb') return false;
  return stream.hasColors?.() ?? true;
}

function paint(options: RenderOptions, codes: string, text: string): string {
  return options.colour && text ? `${codes}${text}${ANSI.reset}` : text;
}

/** `<t:1700000000:R>` etc. in the local zone. */
export function formatTimestamp(seconds: number, style: string, options: RenderOptions): string {
  const date = new Date(seconds * 1000);
  const zone = options.timeZone ? { timeZone: options.timeZone } : {};
  const locale = dateLocale(options);
  const dateText = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', ...zone }).format(date);
  const timeText = new Intl.DateTimeFormat(locale, { timeStyle: 'short', ...zone }).format(date);
  const seconds_ = new Intl.DateTimeFormat(locale, { timeStyle: 'medium', ...zone }).format(date);
  const full = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short', ...zone }).format(
    date,
  );
  const short = new Intl.DateTimeFormat(locale, { dateStyle: 'short', ...zone }).format(date);
  switch (style) {
    case 'R': {
      const now = options.now?.() ?? new Date();
      const within = Math.abs(date.getTime() - now.getTime()) < 86_400_000;
      return `${relative(date, now, (options.t ?? english).locale)}${within ? ` (${timeText})` : ''}`;
    }
    case 'D':
      return dateText;
    case 'd':
      return short;
    case 't':
      return timeText;
    case 'T':
      return seconds_;
    case 'F':
      return full;
    default:
      return `${dateText}, ${timeText}`;
  }
}

function relative(date: Date, now: Date, locale: string): string {
  const diff = (date.getTime() - now.getTime()) / 1000;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 365 * 86400],
    ['month', 30 * 86400],
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(diff) >= size || unit === 'second') return format.format(Math.round(diff / size), unit);
  }
  return format.format(0, 'second');
}

/**
 * Discord markdown as terminal text: timestamps in the local zone, mentions by name, code spans and
 * blocks kept apart from the rest (coloured, or in backticks when plain), bold/italic as ANSI or
 * dropped, and backslash escapes removed.
 */
export function renderMarkdown(text: string, options: RenderOptions): string {
  const out: string[] = [];
  // Code blocks first: their content is shown exactly.
  const parts = inConsoleWords(text, options.t ?? english).split(/(```[^\n`]*\n?[\s\S]*?```)/g);
  for (const part of parts) {
    const block = /^```[^\n`]*\n?([\s\S]*?)\n?```$/.exec(part);
    if (block) {
      const lines = (block[1] ?? '').split('\n').map((line) => `    ${paint(options, ANSI.cyan, line)}`);
      out.push(`\n${lines.join('\n')}\n`);
    } else {
      out.push(renderInline(part, options));
    }
  }
  return out
    .join('')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}

function renderInline(text: string, options: RenderOptions): string {
  let out = '';
  let index = 0;
  /** The instant of the timestamp written last, so its relative twin beside it is not told twice. */
  let lastTimestamp: number | undefined;
  while (index < text.length) {
    const char = text.charAt(index);
    if (char === '\\' && index + 1 < text.length && /[^A-Za-z0-9\s]/.test(text.charAt(index + 1))) {
      out += text.charAt(index + 1);
      index += 2;
      continue;
    }
    if (char === '`') {
      // A code span: a fence of n backticks closed by the same run (literal()), shown as it is.
      const fence = /^`+/.exec(text.slice(index))?.[0] ?? '`';
      const close = findFence(text, index + fence.length, fence);
      if (close !== -1) {
        let inner = text.slice(index + fence.length, close);
        if (inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== '' && /^ `|` $/.test(inner)) {
          inner = inner.slice(1, -1);
        }
        out += options.colour
          ? paint(options, ANSI.cyan, inner)
          : `${fence}${inner.includes('`') ? ` ${inner} ` : inner}${fence}`;
        index = close + fence.length;
        continue;
      }
    }
    const rest = text.slice(index);
    const timestamp = /^<t:(-?\d+)(?::([tTdDfFR]))?>/.exec(rest);
    if (timestamp) {
      const seconds = Number(timestamp[1]);
      const style = timestamp[2] ?? 'f';
      // "28 Nov, 04:05 (12 minutes ago)": a relative time beside the same instant written out needs no
      // clock time of its own.
      const sameInstantShown = style === 'R' && lastTimestamp === seconds;
      const shown = formatTimestamp(seconds, style, options);
      out += paint(options, ANSI.bold, sameInstantShown ? shown.replace(/ \([^()]*\)$/, '') : shown);
      lastTimestamp = seconds;
      index += timestamp[0].length;
      continue;
    }
    const mention = /^<(@[!&]?|#)(\d+)>/.exec(rest);
    if (mention) {
      const [whole, kind = '', id = ''] = mention;
      const names = options.names ?? {};
      const name =
        kind === '#'
          ? `#${names.channels?.[id] ?? id}`
          : kind === '@&'
            ? `@${names.roles?.[id] ?? id}`
            : `@${names.users?.[id] ?? id}`;
      out += paint(options, ANSI.bold, name);
      index += whole.length;
      continue;
    }
    const bold = /^\*\*([\s\S]+?)\*\*/.exec(rest) ?? /^__([\s\S]+?)__/.exec(rest);
    if (bold) {
      const inner = renderInline(bold[1] ?? '', options);
      out += options.colour ? `${ANSI.bold}${inner}${ANSI.reset}` : inner;
      index += bold[0].length;
      continue;
    }
    const italic = /^\*([^*\s][^*]*?)\*(?!\*)/.exec(rest) ?? /^_([^_\s][^_]*?)_(?!_)/.exec(rest);
    if (italic && (index === 0 || /[\s(]/.test(text.charAt(index - 1)))) {
      const inner = renderInline(italic[1] ?? '', options);
      out += options.colour ? `${ANSI.italic}${inner}${ANSI.reset}` : inner;
      index += italic[0].length;
      continue;
    }
    const link = /^\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/.exec(rest);
    if (link) {
      out += `${renderInline(link[1] ?? '', options)} (${link[2]})`;
      index += link[0].length;
      continue;
    }
    // Subtext `-# ` at a line start.
    if ((index === 0 || text.charAt(index - 1) === '\n') && rest.startsWith('-# ')) {
      index += 3;
      continue;
    }
    // Zero-width spaces that keep mentions inert in Discord mean nothing here.
    if (char !== '\u200b') out += char;
    index++;
  }
  return out;
}

function findFence(text: string, from: number, fence: string): number {
  let at = text.indexOf(fence, from);
  while (at !== -1) {
    const before = text.charAt(at - 1);
    const after = text.charAt(at + fence.length);
    if (before !== '`' && after !== '`') return at;
    at = text.indexOf(fence, at + 1);
  }
  return -1;
}

function status(colour: number | undefined, options: RenderOptions): string {
  const known = colour === undefined ? undefined : STATUS[colour];
  if (!known) return '';
  return options.colour
    ? `${known.ansi}${known.mark}${ANSI.reset} `
    : `[${(options.t ?? english)(known.word)}] `;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

/** One embed: a status marker and the title, the description, `name: value` fields, the footer. */
export function renderEmbed(embed: APIEmbed, options: RenderOptions): string {
  const lines: string[] = [];
  const title = embed.title ? renderMarkdown(embed.title, options) : '';
  const mark = status(embed.color, options);
  if (title || mark) lines.push(`${mark}${paint(options, ANSI.bold, title)}`.trimEnd());
  if (embed.author?.name) lines.push(paint(options, ANSI.dim, renderMarkdown(embed.author.name, options)));
  if (embed.description) lines.push(indent(renderMarkdown(embed.description, options), '  '));
  for (const field of embed.fields ?? []) {
    const name = field.name.replace(/\u200b/g, '').trim();
    const value = renderMarkdown(field.value, options);
    if (!name) lines.push(indent(value, '  '));
    else if (!value.includes('\n') && !field.value.includes('```'))
      lines.push(`  ${paint(options, ANSI.bold, `${renderMarkdown(name, options)}:`)} ${value}`);
    else {
      lines.push(`  ${paint(options, ANSI.bold, `${renderMarkdown(name, options)}:`)}`);
      lines.push(indent(value.replace(/^ {4}/gm, ''), '    '));
    }
  }
  const footer = embed.footer?.text ? renderMarkdown(embed.footer.text, options) : '';
  const when = embed.timestamp ? formatTimestamp(Date.parse(embed.timestamp) / 1000, 'f', options) : '';
  const tail = [footer, when].filter(Boolean).join(' · ');
  if (tail) lines.push(paint(options, ANSI.dim, `  ${tail}`));
  return lines.join('\n');
}

/** Buttons that can be pressed by typing their label. */
export function buttonsOf(body: MessageLike): { label: string; customId: string }[] {
  return (body.components ?? []).flatMap((row) =>
    (row.components ?? []).flatMap((button) =>
      button.custom_id && button.label && !button.disabled
        ? [{ label: button.label, customId: button.custom_id }]
        : [],
    ),
  );
}

/** A whole message: content, embeds, attached files and the buttons one may press. */
export function renderMessage(body: MessageLike, options: RenderOptions): string {
  const parts: string[] = [];
  if (body.content) parts.push(renderMarkdown(body.content, options));
  for (const embed of body.embeds ?? []) parts.push(renderEmbed(embed, options));
  for (const file of body.files ?? []) {
    const content = fileText(file);
    parts.push(
      `${paint(options, ANSI.bold, `📎 ${file.name}`)}${content === undefined ? '' : `\n${indent(content.replace(/\n$/, ''), '    ')}`}`,
    );
  }
  const buttons = buttonsOf(body);
  if (buttons.length > 0) {
    const t = options.t ?? english;
    const word = options.buttonWord ?? ((b: { label: string }) => b.label.toLowerCase());
    const words = buttons.map((b) => paint(options, ANSI.bold, word(b)));
    parts.push(paint(options, ANSI.dim, t('console.type_buttons', { buttons: either(words, t) })));
  }
  return parts.join('\n');
}

/** `a or b or c` / `a oder b oder c`: the words one may type. */
export function either(words: readonly string[], t: Translator = english): string {
  if (words.length === 0) return '';
  return words.reduce((first, second) => t('console.either', { first, second }));
}

/** A file's text, whether still a PreviewFile or already an attachment. */
export function fileText(file: { attachment?: unknown; content?: string }): string | undefined {
  if (typeof file.content === 'string') return file.content;
  if (Buffer.isBuffer(file.attachment)) return file.attachment.toString('utf8');
  if (typeof file.attachment === 'string') return file.attachment;
  return undefined;
}
