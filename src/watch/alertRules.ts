import { DateTime } from 'luxon';
import type { Message } from '../i18n/Translator.js';
import type { RegistryAlert } from '../rdap/registryFindings.js';
import type { WatchedDomain, WatchFindings } from '../store/index.js';

/** What one lookup of a watched domain found. */
export type Observation =
  | { kind: 'ok'; expiryDate: string | null; active: boolean; expired: boolean; transferredAway: boolean }
  | { kind: 'not_found' }
  /** `reason`: why, in words of the catalogue (or plain text, shown as it is). */
  | { kind: 'failed'; reason: string | Message };

export type FlagName = 'active' | 'expired' | 'transferredAway';

/** One line of a digest, before it is rendered. */
export type Alert =
  | {
      kind: 'expiry';
      domain: string;
      unicode: string;
      expiryDate: string;
      daysLeft: number;
      threshold: number;
    }
  | { kind: 'renewed'; domain: string; unicode: string; from: string; to: string }
  | {
      kind: 'flag';
      domain: string;
      unicode: string;
      flag: FlagName;
      from: boolean;
      to: boolean;
      bad: boolean;
    }
  | { kind: 'not_found'; domain: string; unicode: string }
  | { kind: 'failing'; domain: string; unicode: string; failures: number; reason: string | Message }
  | { kind: 'known_again'; domain: string; unicode: string }
  /** The registry's word differs from the provider's, or changed (src/rdap). */
  | RegistryAlert;

export interface Decision {
  /** What to store: applied only if the row still holds what the run read. */
  findings: WatchFindings;
  /** Alerts that follow from the change; sent only by the run whose update applied. */
  onChange: Alert[];
  /**
   * The lowest lead threshold the domain is at or below, with its unique key: the alert goes out only
   * if the key is new. Keys are per expiry date, so a renewal starts the thresholds over.
   */
  expiry?: { alert: Alert; key: string };
}

/** Failed runs in a row before a domain is reported as failing. */
export const FAILING_AFTER = 3;

// A flag that turns this way is bad news; the other way is information.
const BAD: Record<FlagName, boolean> = { active: false, expired: true, transferredAway: true };

/**
 * The alert rules, pure: what changed between what the store held and what the provider says now,
 * on `today` in the API's zone. Thresholds are lead days, e.g. [30, 14, 7, 3, 1].
 */
export function decide(
  seen: WatchedDomain,
  observation: Observation,
  today: DateTime,
  leadDays: readonly number[],
): Decision {
  const { domain, unicode } = seen;
  if (observation.kind === 'failed') {
    const failures = seen.failures + 1;
    return {
      findings: { ...findingsOf(seen), status: seen.status === 'new' ? 'failed' : seen.status, failures },
      onChange:
        failures === FAILING_AFTER
          ? [{ kind: 'failing', domain, unicode, failures, reason: observation.reason }]
          : [],
    };
  }
  if (observation.kind === 'not_found') {
    return {
      findings: { ...findingsOf(seen), status: 'not_found', failures: 0 },
      onChange: seen.status === 'not_found' ? [] : [{ kind: 'not_found', domain, unicode }],
    };
  }

  const findings: WatchFindings = {
    status: 'ok',
    failures: 0,
    expiryDate: observation.expiryDate,
    active: observation.active,
    expired: observation.expired,
    transferredAway: observation.transferredAway,
  };
  const onChange: Alert[] = [];
  if (seen.status === 'not_found') onChange.push({ kind: 'known_again', domain, unicode });
  if (
    seen.expiryDate !== null &&
    observation.expiryDate !== null &&
    observation.expiryDate > seen.expiryDate
  ) {
    onChange.push({ kind: 'renewed', domain, unicode, from: seen.expiryDate, to: observation.expiryDate });
  }
  for (const flag of ['active', 'expired', 'transferredAway'] as const) {
    const from = seen[flag];
    const to = observation[flag];
    // A first sighting is not a change; a new domain's state shows in its threshold alert instead.
    if (from !== null && from !== to) {
      onChange.push({ kind: 'flag', domain, unicode, flag, from, to, bad: to === BAD[flag] });
    }
  }

  const decision: Decision = { findings, onChange };
  if (observation.expiryDate !== null) {
    const expiry = DateTime.fromISO(observation.expiryDate, { zone: today.zone });
    const daysLeft = Math.round(expiry.startOf('day').diff(today.startOf('day'), 'days').days);
    const crossed = leadDays.filter((threshold) => daysLeft <= threshold);
    if (crossed.length > 0) {
      const threshold = Math.min(...crossed);
      decision.expiry = {
        alert: { kind: 'expiry', domain, unicode, expiryDate: observation.expiryDate, daysLeft, threshold },
        key: `expiry:${observation.expiryDate}:${threshold}`,
      };
    }
  }
  return decision;
}

function findingsOf(seen: WatchedDomain): WatchFindings {
  const { status, failures, expiryDate, active, expired, transferredAway } = seen;
  return { status, failures, expiryDate, active, expired, transferredAway };
}
