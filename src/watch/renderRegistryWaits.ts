import { DateTime } from 'luxon';
import type { Translator } from '../i18n/Translator.js';
import { Colour } from '../replies/colours.js';
import type { RegistryWait } from './RegistryLanes.js';
import type { DigestMessage } from './renderDigest.js';

/** A registry's wait as the digest says it: the time of day in the API's zone, with its date when not today. */
function untilText(until: Date, zone: string, now: Date): string {
  // Rounded up to the minute: never earlier than the registry allows.
  const exact = DateTime.fromJSDate(until, { zone });
  const at = exact.startOf('minute').equals(exact) ? exact : exact.startOf('minute').plus({ minutes: 1 });
  const today = DateTime.fromJSDate(now, { zone }).hasSame(at, 'day');
  return at.toFormat(today ? 'HH:mm' : 'yyyy-MM-dd HH:mm');
}

/** One registry's wait: who asks us to wait until when, or ran out of the run's time, and how many domains. */
export function registryWaitLine(wait: RegistryWait, t: Translator, zone: string, now: Date): string {
  const tlds = wait.tlds.join(', ');
  return wait.until
    ? t('rdap.watch.paused', { count: wait.count, tlds, until: untilText(wait.until, zone, now) })
    : t('rdap.watch.deadline', { count: wait.count, tlds });
}

/**
 * One message in the watch channel: each registry a run could not finish asking, why, and how many of its
 * domains are carried to the next run (which asks them first). Mentions nobody.
 */
export function renderRegistryWaits(
  waits: readonly RegistryWait[],
  t: Translator,
  zone: string,
  now: Date,
): DigestMessage {
  const lines = waits.map((wait) => registryWaitLine(wait, t, zone, now));
  return {
    embeds: [{ title: t('rdap.watch.waiting_title'), color: Colour.warning, description: lines.join('\n') }],
    allowed_mentions: { parse: [], roles: [] },
  };
}
