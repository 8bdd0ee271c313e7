import { type APIEmbedField, TimestampStyles, time } from 'discord.js';
import type { CommandContext, ReadAnswer } from '../../src/discord/CommandModule.js';
import type { MessageKey, Translator } from '../../src/i18n/Translator.js';
import type { RdapFailure } from '../../src/rdap/RdapClient.js';
import { REQUEST_MAX_AGE_MS } from '../../src/rdap/RegistryCheck.js';
import type { RegistryBeside } from '../../src/rdap/registryData.js';
import { differs, HELD, registryDate, TRANSFER_PENDING } from '../../src/rdap/registryFindings.js';
import { escapeUserText } from '../../src/replies/escapeUserText.js';
import { calendarDate } from '../../src/watch/formatDate.js';

const WHY: Record<RdapFailure, Extract<MessageKey, `rdap.why.${string}`>> = {
  timeout: 'rdap.why.timeout',
  network: 'rdap.why.network',
  status: 'rdap.why.status',
  rate_limited: 'rdap.why.rate_limited',
  refused: 'rdap.why.refused',
  busy: 'rdap.why.busy',
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
            { maxAgeMs: REQUEST_MAX_AGE_MS, urgent: true },
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
 * The registry's share of a /domain info's wait once the provider has answered: past it, the provider's
 * answer goes out with the registry "still being asked", and the reply is edited when the registry answers
 * (or gives up: RegistryCheck bounds that). A slow registry never holds up the provider's answer for long.
 */
export const REGISTRY_SHARE_MS = 1_500;

/**
 * `render`ed with the registry's word for one domain, or — when the registry has not answered within
 * `budgetMs` — with what was stored before, marked pending, and `later` the answer with the registry's
 * word (never rejects). Without the registry check (RDAP_CHECK=off), `render()` at once.
 */
export async function withRegistry(
  context: Pick<CommandContext, 'registry' | 'watch' | 'store' | 'logger' | 'now'>,
  entry: { domain: string; unicode: string; providerExpiry: string | null },
  render: (view?: RegistryBeside) => ReadAnswer,
  budgetMs = REGISTRY_SHARE_MS,
): Promise<ReadAnswer> {
  const { registry } = context;
  if (!registry) return render();
  const providerReadAt = context.now();
  const asking = registryBeside(context, [entry]).then(
    (views) => views.get(entry.domain),
    (error: unknown) => {
      context.logger.error({ err: error, domain: entry.domain }, 'rdap: look-up failed');
      return { record: undefined, failed: 'network', providerReadAt } satisfies RegistryBeside;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const late = Symbol('late');
  const first = await Promise.race([
    asking,
    new Promise<typeof late>((resolve) => {
      timer = setTimeout(() => resolve(late), budgetMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (first !== late) return render(first);
  const stored = await registry.stored(entry.domain).catch(() => undefined);
  return {
    ...render({ record: stored, pending: true, providerReadAt }),
    later: asking.then(render),
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
