import { type APIEmbedField, TimestampStyles, time } from 'discord.js';
import type { AnswerData, CommandContext, ReadAnswer } from '../../src/discord/CommandModule.js';
import type { MessageKey, Translator } from '../../src/i18n/Translator.js';
import type { RdapFailure } from '../../src/rdap/RdapClient.js';
import { REQUEST_MAX_AGE_MS } from '../../src/rdap/RegistryCheck.js';
import type { RegistryBeside } from '../../src/rdap/registryData.js';
import { differs, HELD, registryDate, TRANSFER_PENDING } from '../../src/rdap/registryFindings.js';
import { escapeUserText } from '../../src/replies/escapeUserText.js';
import { cutText } from '../../src/text/cutText.js';
import { calendarDate } from '../../src/watch/formatDate.js';

const WHY: Record<RdapFailure, Extract<MessageKey, `rdap.why.${string}`>> = {
  timeout: 'rdap.why.timeout',
  network: 'rdap.why.network',
  status: 'rdap.why.status',
  rate_limited: 'rdap.why.rate_limited',
  refused: 'rdap.why.refused',
  busy: 'rdap.why.busy',
  paused: 'rdap.why.rate_limited',
  no_bootstrap: 'rdap.why.no_bootstrap',
};

/**
 * Asks the registry for each domain whose stored answer is older than a day (someone waits: ahead of the
 * watch, within a few seconds), and posts what it found about a watched domain through the watch's
 * digest, as the watch would have. Empty with RDAP_CHECK=off.
 */
export async function registryBeside(
  context: Pick<CommandContext, 'registry' | 'watch' | 'store' | 'logger' | 'now'>,
  entries: readonly { domain: string; unicode: string; providerExpiry: string | null }[],
  /** An operator's re-ask: 0, asked whatever the stored answer's age. */
  maxAgeMs = REQUEST_MAX_AGE_MS,
): Promise<Map<string, RegistryBeside>> {
  const views = new Map<string, RegistryBeside>();
  const { registry } = context;
  if (!registry || entries.length === 0) return views;
  const providerReadAt = context.now();
  let watched = new Set<string>();
  try {
    watched = new Set((await context.store.watch.get(entries.map((e) => e.domain))).map((w) => w.domain));
  } catch (error) {
    context.logger.warn({ err: error }, 'rdap: could not read the watch list');
  }
  const alerts = (
    await Promise.all(
      entries.map(async (entry) => {
        try {
          const outcome = await registry.refresh(
            { domain: entry.domain, unicode: entry.unicode, watched: watched.has(entry.domain) },
            entry.providerExpiry,
            { maxAgeMs, urgent: true },
          );
          views.set(entry.domain, { ...outcome, providerReadAt });
          return outcome.alerts;
        } catch (error) {
          context.logger.error({ err: error, domain: entry.domain }, 'rdap: look-up failed');
          views.set(entry.domain, { record: undefined, failed: 'network', providerReadAt });
          return [];
        }
      }),
    )
  ).flat();
  // What a watched domain's registry said shows in the watch's series (flags, expiry) from now on.
  if (watched.size > 0) await context.watch?.noteChanged(context.logger);
  if (alerts.length > 0 && context.watch) await context.watch.post(alerts, context.logger);
  return views;
}

/**
 * `render`ed at once with what the registry said before (the provider's answer never waits for the
 * registry): when that stored answer is younger than a day it is the answer; otherwise it is shown marked
 * "still being asked", and `later` is the answer with the registry's word once it has answered or given up
 * (RegistryCheck bounds that; never rejects). Without the registry check (RDAP_CHECK=off), `render()`.
 */
export async function withRegistry(
  context: Pick<CommandContext, 'registry' | 'watch' | 'store' | 'logger' | 'now'>,
  entry: { domain: string; unicode: string; providerExpiry: string | null },
  render: (view?: RegistryBeside) => ReadAnswer,
  /** An operator's re-ask: asked now, whatever the stored answer's age. */
  reask = false,
): Promise<ReadAnswer> {
  const { registry } = context;
  if (!registry) return render();
  const providerReadAt = context.now();
  const stored = await registry.stored(entry.domain).catch((error: unknown) => {
    context.logger.warn({ err: error, domain: entry.domain }, 'rdap: could not read the stored answer');
    return undefined;
  });
  if (!reask && stored && !registry.due(stored, REQUEST_MAX_AGE_MS))
    return render({ record: stored, providerReadAt });
  const asking = registryBeside(context, [entry], reask ? 0 : REQUEST_MAX_AGE_MS).then(
    (views) => views.get(entry.domain) ?? { record: stored, failed: 'network' as const, providerReadAt },
    (error: unknown) => {
      context.logger.error({ err: error, domain: entry.domain }, 'rdap: look-up failed');
      return { record: stored, failed: 'network', providerReadAt } satisfies RegistryBeside;
    },
  );
  return {
    ...render({ record: stored, pending: true, providerReadAt }),
    later: asking.then(render),
  };
}

type Entry = { domain: string; unicode: string; providerExpiry: string | null };

/**
 * What can be shown at once (no registry is asked): each domain's stored answer when it is younger than a
 * day; `due` are the domains to ask (registryBeside) after the provider's answer is out.
 */
export async function storedBeside(
  context: Pick<CommandContext, 'registry' | 'logger' | 'now'>,
  entries: readonly Entry[],
): Promise<{ views: Map<string, RegistryBeside>; due: Entry[] }> {
  const views = new Map<string, RegistryBeside>();
  const { registry } = context;
  if (!registry || entries.length === 0) return { views, due: [] };
  const providerReadAt = context.now();
  const due: Entry[] = [];
  for (const entry of entries) {
    const record = await registry.stored(entry.domain).catch((error: unknown) => {
      context.logger.warn({ err: error, domain: entry.domain }, 'rdap: could not read the stored answer');
      return undefined;
    });
    if (record && !registry.due(record, REQUEST_MAX_AGE_MS))
      views.set(entry.domain, { record, providerReadAt });
    else due.push(entry);
  }
  return { views, due };
}

/**
 * Asks the registry about `due` (after the provider's answer went out) and resolves to the message that
 * follows it with the registry's word, and `data`, the answer's data with it; undefined when none is due.
 */
export function registryFollowing(
  context: Pick<CommandContext, 'registry' | 'watch' | 'store' | 'logger' | 'now' | 't'>,
  due: readonly Entry[],
  zone: string,
  data: (views: ReadonlyMap<string, RegistryBeside>) => AnswerData,
): Promise<ReadAnswer | undefined> | undefined {
  if (due.length === 0) return undefined;
  return registryBeside(context, due).then(
    (views) => ({ ...registryFollowUp(due, views, zone, context.t), data: data(views) }),
    (error: unknown) => {
      context.logger.error({ err: error }, 'rdap: look-ups failed');
      return undefined;
    },
  );
}

/**
 * The message that follows a /domain expiry with the registry's word on the domains it was asked about:
 * a line for each where it differs, holds the domain, offers no RDAP or could not be asked.
 */
export function registryFollowUp(
  asked: readonly Entry[],
  views: ReadonlyMap<string, RegistryBeside>,
  zone: string,
  t: Translator,
): ReadAnswer {
  const lines: string[] = [];
  for (const entry of asked) {
    const view = views.get(entry.domain);
    const note = view?.failed
      ? ` · ${t('rdap.info.not_asked', { why: t(WHY[view.failed]) })}`
      : registryNote(view, entry.providerExpiry, zone, t);
    if (note !== '') lines.push(`**${escapeUserText(entry.unicode, 300)}**${note}`);
  }
  if (lines.length === 0) lines.push(t('rdap.expiry.agrees'));
  return {
    embeds: [
      {
        title: t('rdap.expiry.title', { count: asked.length }),
        description: cutText(lines.join('\n'), 4000),
      },
    ],
  };
}

const ago = (date: Date) => time(date, TimestampStyles.RelativeTime);

/** The registry's expiry and status, with when it and the provider were read: a line each in /domain info. */
export function registryFields(
  view: RegistryBeside,
  providerExpiry: string | null,
  zone: string,
  t: Translator,
): APIEmbedField[] {
  const { record } = view;
  const lines: string[] = [];
  const notAsked = view.pending
    ? t('rdap.info.asking')
    : view.failed
      ? t('rdap.info.not_asked', { why: t(WHY[view.failed]) })
      : undefined;
  let status: string | undefined;
  if (!record) lines.push(notAsked ?? t('domain.info.unknown'));
  else {
    if (record.outcome === 'no_rdap') lines.push(t('rdap.info.no_rdap'));
    else if (record.outcome === 'not_found') lines.push(t('rdap.info.not_found'));
    else {
      if (record.outcome === 'unreadable') lines.push(t('rdap.info.unreadable'));
      if (record.expiresAt !== null) {
        const date = registryDate(record.expiresAt, zone);
        const mark =
          providerExpiry !== null && differs(date, providerExpiry) ? ` ${t('rdap.info.differs')}` : '';
        lines.push(`${calendarDate(date, t)}${mark}`);
      } else if (record.outcome === 'ok') lines.push(t('rdap.info.no_date'));
      status = escapeUserText((record.statuses ?? []).join(', ') || t('rdap.info.none'), 500);
    }
    lines.push(t('rdap.info.read_at', { when: ago(record.readAt) }));
    if (notAsked) lines.push(notAsked);
  }
  lines.push(t('rdap.info.provider_read', { when: ago(view.providerReadAt) }));
  // One line, in Discord and in the console: the date, then when each side was read.
  const fields: APIEmbedField[] = [
    { name: t('rdap.info.registry_expires'), value: lines.join(' · '), inline: false },
  ];
  if (status !== undefined)
    fields.push({ name: t('rdap.info.registry_status'), value: status, inline: false });
  return fields;
}

/** A short note after a /domain expiry line: the registry's date when it differs, or why there is none. */
export function registryNote(
  view: RegistryBeside | undefined,
  providerExpiry: string | null,
  zone: string,
  t: Translator,
): string {
  const record = view?.record;
  if (!view || !record) return '';
  if (record.outcome === 'no_rdap') return ` · ${t('rdap.info.no_rdap')}`;
  if (record.outcome === 'unreadable') return ` · ${t('rdap.info.unreadable')}`;
  if (record.outcome !== 'ok') return '';
  const date = record.expiresAt === null ? null : registryDate(record.expiresAt, zone);
  const held = (record.statuses ?? []).filter((s) => s === TRANSFER_PENDING || HELD.includes(s));
  return [
    date !== null && providerExpiry !== null && differs(date, providerExpiry)
      ? ` · ${t('rdap.info.registry_expires')} ${calendarDate(date, t)} ${t('rdap.info.differs')}`
      : '',
    held.length > 0 ? ` · ${t('rdap.info.registry_status')}: ${escapeUserText(held.join(', '), 120)}` : '',
  ].join('');
}
