import type { ReadScope } from '../access/AccessPolicy.js';
import { readScopeOf } from '../access/readScopeOf.js';
import { memberRoleIds, tierAllows } from '../access/tiers.js';
import type { TargetSource } from '../store/index.js';
import { domainToUnicode } from '../validation/idna.js';
import type { Autocomplete, CommandContext } from './CommandModule.js';

/** What Discord shows at most, and the longest choice value it takes. */
export const MAX_CHOICES = 25;
const MAX_VALUE_LENGTH = 100;
/** Audit rows read for one suggestion list: enough to fill 25 choices after filtering. */
const RECENT_SCAN = 200;

type CommandName = { command: string; subcommand: string };

/** The commands whose audit target is one ASCII domain name. */
const DOMAIN_COMMANDS: readonly CommandName[] = [
  { command: 'domain', subcommand: 'info' },
  { command: 'domain', subcommand: 'records' },
  { command: 'domain', subcommand: 'dns' },
  { command: 'domain', subcommand: 'register' },
];

/** The commands whose audit target is `server <id>` or `server <id> <ip>`. */
const SERVER_COMMANDS: readonly CommandName[] = [
  { command: 'server', subcommand: 'logs' },
  { command: 'server', subcommand: 'rdns' },
];

/**
 * The outcomes whose targets the channel has seen: a read answered, a change sent (or maybe sent). A
 * cancelled, refused, rejected or invalid request stayed private to whoever typed it.
 */
const SEEN_OUTCOMES = { read: ['ok'], change: ['done', 'unknown'] } as const;

const ASCII_DOMAIN = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;
const SERVER_TARGET = /^server (\d{1,15})(?:\s|$)/;
const NON_ASCII = /[^\u0020-\u007e]/;

type Choice = { name: string; value: string };
type SuggestionContext = Pick<CommandContext, 'store' | 'commands' | 'tier' | 'gate' | 'interaction'>;
/** The caller's context with their read scope: what they may see bounds what they are offered. */
type Scoped = SuggestionContext & { scope: ReadScope };

async function scoped(context: SuggestionContext): Promise<Scoped> {
  return { ...context, scope: await readScopeOf(context) };
}

function choiceOf(ascii: string): Choice | undefined {
  // A value Discord would refuse (or a target that is not one domain) is not offered.
  if (ascii.length > MAX_VALUE_LENGTH || !ASCII_DOMAIN.test(ascii)) return undefined;
  const unicode = domainToUnicode(ascii);
  return { name: unicode !== ascii ? `${unicode} (${ascii})` : ascii, value: ascii };
}

/**
 * The subcommand a command name refers to, if the caller may run it: by their role tier, or (below it) by a
 * grant of theirs that allows it somewhere — its targets are then filtered by their read scope.
 */
async function runnable(context: Scoped, { command, subcommand }: CommandName) {
  const { commands, tier, gate, interaction } = context;
  const handler = commands.find((module) => module.definition.name === command)?.subcommands[subcommand];
  if (!handler) return undefined;
  if (tierAllows(tier, handler.tier)) return handler;
  if (!gate) return undefined;
  const asker = { userId: interaction.user.id, roleIds: memberRoleIds(interaction) };
  const label = `/${command} ${subcommand}`;
  // Asked as a read naming no resource: "does a grant of theirs allow this command anywhere".
  const decision = await gate.decide(asker, { label, tier: handler.tier, kind: 'read' });
  return decision.allowed ? handler : undefined;
}

/**
 * Where suggestions may come from for this caller: only commands their tier may run, and only what
 * those commands showed the channel, so a viewer is never offered the target of an operator's change.
 */
async function sourcesFor(context: Scoped, names: readonly CommandName[]): Promise<TargetSource[]> {
  const sources = await Promise.all(
    names.map(async (name) => {
      const handler = await runnable(context, name);
      if (handler === undefined || handler.kind === 'info') return [];
      return [{ ...name, outcomes: SEEN_OUTCOMES[handler.kind] }];
    }),
  );
  return sources.flat();
}

/** Domains used lately in domain commands (the audit trail) that contain `typed`, most recent first. */
async function recentDomains(context: Scoped, typed: string): Promise<string[]> {
  const sources = await sourcesFor(context, DOMAIN_COMMANDS);
  // Targets are stored as punycode: what was typed in Unicode is matched against their Unicode form.
  if (NON_ASCII.test(typed)) {
    const targets = await context.store.audit.recentTargets(sources, '', RECENT_SCAN);
    return targets.filter((target) => domainToUnicode(target).toLowerCase().includes(typed));
  }
  return context.store.audit.recentTargets(sources, typed, MAX_CHOICES);
}

/** Watched domains containing `typed`, for a caller who may list the watch. */
async function watchedDomains(context: Scoped, typed: string): Promise<string[]> {
  if ((await runnable(context, { command: 'watch', subcommand: 'list' })) === undefined) return [];
  return context.store.watch.search(typed, MAX_CHOICES);
}

/**
 * Watched and recently used domains containing `typed` (ASCII or Unicode form), without duplicates,
 * at most 25. `watchedFirst` puts the watch list before the journal's recent domains.
 */
export async function domainChoices(
  context: SuggestionContext,
  typed: string,
  options: { watchedFirst?: boolean } = {},
): Promise<Choice[]> {
  const part = typed.trim().toLowerCase();
  const withScope = await scoped(context);
  const [watched, recent] = await Promise.all([
    watchedDomains(withScope, part),
    recentDomains(withScope, part),
  ]);
  const ordered = options.watchedFirst ? [...watched, ...recent] : [...recent, ...watched];
  const seen = new Set<string>();
  const choices: Choice[] = [];
  for (const domain of ordered) {
    if (seen.has(domain)) continue;
    seen.add(domain);
    if (!withScope.scope.covers({ kind: 'domain', ascii: domain })) continue;
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
export const suggestServerIds: Autocomplete = async (context) => {
  const { store, focused, t } = context;
  if (focused.name !== 'id') return [];
  const typed = focused.value.trim();
  // Anything but digits can match no id.
  if (!/^\d*$/.test(typed)) return [];
  const withScope = await scoped(context);
  const sources = await sourcesFor(withScope, SERVER_COMMANDS);
  const targets = await store.audit.recentTargets(sources, typed, RECENT_SCAN);
  const ids: number[] = [];
  for (const target of targets) {
    const id = SERVER_TARGET.exec(target)?.[1];
    if (id === undefined || !id.includes(typed)) continue;
    const value = Number(id);
    if (!Number.isSafeInteger(value) || value < 1 || ids.includes(value)) continue;
    if (!withScope.scope.covers({ kind: 'server', id: value })) continue;
    ids.push(value);
    if (ids.length === MAX_CHOICES) break;
  }
  return ids.map((id) => ({ name: t('server.suggestion', { id: String(id) }), value: id }));
};
