import { domainToUnicode } from 'node:url';
import type { Autocomplete, CommandContext } from './CommandModule.js';

/** What Discord shows at most, and the longest choice value it takes. */
export const MAX_CHOICES = 25;
const MAX_VALUE_LENGTH = 100;
/** Audit rows read for one suggestion list: enough to fill 25 choices after filtering. */
const RECENT_SCAN = 200;

/** The commands whose audit target is one ASCII domain name. */
const DOMAIN_COMMANDS = [
  { command: 'domain', subcommand: 'info' },
  { command: 'domain', subcommand: 'dns' },
  { command: 'domain', subcommand: 'register' },
] as const;

/** The commands whose audit target is `server <id>` or `server <id> <ip>`. */
const SERVER_COMMANDS = [
  { command: 'server', subcommand: 'logs' },
  { command: 'server', subcommand: 'rdns' },
] as const;

const ASCII_DOMAIN = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;
const SERVER_TARGET = /^server (\d{1,15})(?:\s|$)/;
const NON_ASCII = /[^\u0020-\u007e]/;

type Choice = { name: string; value: string };
type SuggestionContext = Pick<CommandContext, 'store'>;

function choiceOf(ascii: string): Choice | undefined {
  // A value Discord would refuse (or a target that is not one domain) is not offered.
  if (ascii.length > MAX_VALUE_LENGTH || !ASCII_DOMAIN.test(ascii)) return undefined;
  const unicode = domainToUnicode(ascii);
  return { name: unicode && unicode !== ascii ? `${unicode} (${ascii})` : ascii, value: ascii };
}

/** Domains used lately in domain commands (the audit trail) that contain `typed`, most recent first. */
async function recentDomains(store: SuggestionContext['store'], typed: string): Promise<string[]> {
  // Targets are stored as punycode: what was typed in Unicode is matched against their Unicode form.
  if (NON_ASCII.test(typed)) {
    const targets = await store.audit.recentTargets(DOMAIN_COMMANDS, '', RECENT_SCAN);
    return targets.filter((target) => domainToUnicode(target).toLowerCase().includes(typed));
  }
  return store.audit.recentTargets(DOMAIN_COMMANDS, typed, MAX_CHOICES);
}

/**
 * Watched and recently used domains containing `typed` (ASCII or Unicode form), without duplicates,
 * at most 25. `watchedFirst` puts the watch list before the journal's recent domains.
 */
export async function domainChoices(
  { store }: SuggestionContext,
  typed: string,
  options: { watchedFirst?: boolean } = {},
): Promise<Choice[]> {
  const part = typed.trim().toLowerCase();
  const [watched, recent] = await Promise.all([
    store.watch.search(part, MAX_CHOICES),
    recentDomains(store, part),
  ]);
  const ordered = options.watchedFirst ? [...watched, ...recent] : [...recent, ...watched];
  const seen = new Set<string>();
  const choices: Choice[] = [];
  for (const domain of ordered) {
    if (seen.has(domain)) continue;
    seen.add(domain);
    const choice = choiceOf(domain);
    if (choice) choices.push(choice);
    if (choices.length === MAX_CHOICES) break;
  }
  return choices;
}

/** For a `domain` option: recently used domains first, then watched ones. */
export const suggestDomains: Autocomplete = async (context) => {
  if (context.focused.name !== 'domain') return [];
  return domainChoices(context, context.focused.value);
};

/**
 * For a list of domains (`/watch remove domains`): completes the name being typed (after the last
 * space, comma or semicolon), keeping what was typed before it. Watched domains come first; names
 * already in the list are not offered again, nor a list longer than a choice value may be.
 */
export const suggestDomainList: Autocomplete = async (context) => {
  if (context.focused.name !== 'domains') return [];
  const typed = context.focused.value;
  const split = /^(.*[\s,;])?([^\s,;]*)$/su.exec(typed);
  const prefix = split?.[1] ?? '';
  const last = split?.[2] ?? typed;
  const listed = new Set(
    prefix
      .split(/[\s,;]+/u)
      .filter(Boolean)
      .map((name) => name.toLowerCase()),
  );
  const choices = await domainChoices(context, last, { watchedFirst: true });
  return choices
    .filter((choice) => !listed.has(choice.value))
    .map((choice) =>
      prefix === '' ? choice : { name: `${prefix}${choice.value}`, value: `${prefix}${choice.value}` },
    )
    .filter((choice) => choice.value.length <= MAX_VALUE_LENGTH);
};

/**
 * For a server `id` option: ids used lately in server commands that contain the digits typed, named
 * in the invoker's language.
 */
export const suggestServerIds: Autocomplete = async ({ store, focused, t }) => {
  if (focused.name !== 'id') return [];
  const typed = focused.value.trim();
  // Anything but digits can match no id.
  if (!/^\d*$/.test(typed)) return [];
  const targets = await store.audit.recentTargets(SERVER_COMMANDS, typed, RECENT_SCAN);
  const ids: number[] = [];
  for (const target of targets) {
    const id = SERVER_TARGET.exec(target)?.[1];
    if (id === undefined || !id.includes(typed)) continue;
    const value = Number(id);
    if (!Number.isSafeInteger(value) || value < 1 || ids.includes(value)) continue;
    ids.push(value);
    if (ids.length === MAX_CHOICES) break;
  }
  return ids.map((id) => ({ name: t('server.suggestion', { id: String(id) }), value: id }));
};
