// The alert rules, pure: an injected `today` (Europe/Berlin), the store's claimAlert unique key
// simulated with a Set, and each decision's findings applied as the store's record would apply them.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { WatchedDomain, WatchFindings } from '../../src/store/index.js';
import { type Alert, decide, FAILING_AFTER, type Observation } from '../../src/watch/alertRules.js';

const ZONE = 'Europe/Berlin';
const LEAD = [30, 14, 7, 3, 1] as const;

const day = (iso: string) => DateTime.fromISO(iso, { zone: ZONE });

function watched(overrides: Partial<WatchedDomain> = {}): WatchedDomain {
  return {
    domain: 'example.com',
    unicode: 'example.com',
    addedById: '100000000000000001',
    addedAt: new Date('2030-01-01T00:00:00Z'),
    checkedAt: null,
    status: 'new',
    failures: 0,
    expiryDate: null,
    active: null,
    expired: null,
    transferredAway: null,
    ...overrides,
  };
}

const ok = (
  expiryDate: string | null,
  flags: Partial<Record<'active' | 'expired' | 'transferredAway', boolean>> = {},
) =>
  ({
    kind: 'ok',
    expiryDate,
    active: flags.active ?? true,
    expired: flags.expired ?? false,
    transferredAway: flags.transferredAway ?? false,
  }) satisfies Observation;
const NOT_FOUND = { kind: 'not_found' } satisfies Observation;
const failed = (reason = 'timeout') => ({ kind: 'failed', reason }) satisfies Observation;

/**
 * One watched domain as the store keeps it: every decision's findings are recorded (one run at a time, so
 * the conditional update always applies) and an expiry alert goes out only if its key is new.
 */
class Simulated {
  state: WatchedDomain;
  readonly claimed = new Set<string>();
  constructor(initial: Partial<WatchedDomain> = {}) {
    this.state = watched(initial);
  }
  check(observation: Observation, today: DateTime): Alert[] {
    const decision = decide(this.state, observation, today, LEAD);
    this.state = { ...this.state, ...decision.findings, checkedAt: today.toJSDate() };
    const alerts = [...decision.onChange];
    if (decision.expiry && !this.claimed.has(`${this.state.domain}|${decision.expiry.key}`)) {
      this.claimed.add(`${this.state.domain}|${decision.expiry.key}`);
      alerts.push(decision.expiry.alert);
    }
    return alerts;
  }
}

const findingsOf = (d: WatchedDomain): WatchFindings => ({
  status: d.status,
  failures: d.failures,
  expiryDate: d.expiryDate,
  active: d.active,
  expired: d.expired,
  transferredAway: d.transferredAway,
});

describe('expiry thresholds', () => {
  it('crosses 30 → 14 → 7 → 3 → 1 one by one over simulated days, each once', () => {
    // 45 days before expiry, daily until 5 days after it, across the switch to summer time (2030-03-31).
    const expiry = '2030-04-15';
    const domain = new Simulated();
    const sent: { daysLeft: number; threshold: number; on: string }[] = [];
    for (let today = day(expiry).minus({ days: 45 }); today <= day(expiry).plus({ days: 5 }); ) {
      for (const alert of domain.check(ok(expiry), today.set({ hour: 8 }))) {
        if (alert.kind !== 'expiry') throw new Error(`unexpected ${alert.kind}`);
        sent.push({ daysLeft: alert.daysLeft, threshold: alert.threshold, on: today.toISODate() ?? '' });
      }
      today = today.plus({ days: 1 });
    }
    expect(sent).toEqual([
      { daysLeft: 30, threshold: 30, on: '2030-03-16' },
      { daysLeft: 14, threshold: 14, on: '2030-04-01' },
      { daysLeft: 7, threshold: 7, on: '2030-04-08' },
      { daysLeft: 3, threshold: 3, on: '2030-04-12' },
      { daysLeft: 1, threshold: 1, on: '2030-04-14' },
    ]);
  });

  it('several checks on the same day alert once', () => {
    const domain = new Simulated();
    const today = day('2030-03-01');
    expect(domain.check(ok('2030-03-08'), today.set({ hour: 0, minute: 1 }))).toHaveLength(1);
    expect(domain.check(ok('2030-03-08'), today.set({ hour: 12 }))).toEqual([]);
    expect(domain.check(ok('2030-03-08'), today.set({ hour: 23, minute: 59 }))).toEqual([]);
  });

  it('days are calendar days in the zone: 23:30 in Berlin is still that day', () => {
    const decision = decide(
      watched(),
      ok('2030-03-08'),
      DateTime.fromISO('2030-03-01T22:30:00Z', { zone: ZONE }),
      LEAD,
    );
    expect(decision.expiry?.alert).toMatchObject({ daysLeft: 7, threshold: 7 });
  });

  it('a first sighting at 10 days left alerts once, at 14 (not at 30 as well)', () => {
    const domain = new Simulated();
    const alerts = domain.check(ok('2030-03-11'), day('2030-03-01'));
    expect(alerts).toEqual([
      {
        kind: 'expiry',
        domain: 'example.com',
        unicode: 'example.com',
        expiryDate: '2030-03-11',
        daysLeft: 10,
        threshold: 14,
      },
    ]);
    // Two days later, still above 7: nothing; at 7: the next threshold.
    expect(domain.check(ok('2030-03-11'), day('2030-03-03'))).toEqual([]);
    expect(domain.check(ok('2030-03-11'), day('2030-03-04'))).toMatchObject([{ threshold: 7 }]);
  });

  it('a skipped run alerts for the lowest threshold reached only', () => {
    const domain = new Simulated();
    expect(domain.check(ok('2030-03-31'), day('2030-03-01'))).toMatchObject([
      { daysLeft: 30, threshold: 30 },
    ]);
    // Nobody checked for three weeks: 6 days left → 7, not 14 and 7.
    expect(domain.check(ok('2030-03-31'), day('2030-03-25'))).toMatchObject([{ daysLeft: 6, threshold: 7 }]);
  });

  it('far from expiry, or with no expiry date, there is no threshold', () => {
    expect(decide(watched(), ok('2031-01-01'), day('2030-03-01'), LEAD).expiry).toBeUndefined();
    expect(decide(watched(), ok(null), day('2030-03-01'), LEAD).expiry).toBeUndefined();
  });

  it('a domain already past its expiry counts as the lowest threshold, with negative days left', () => {
    const decision = decide(watched(), ok('2030-02-25', { expired: true }), day('2030-03-01'), LEAD);
    expect(decision.expiry).toEqual({
      alert: expect.objectContaining({ daysLeft: -4, threshold: 1 }),
      key: 'expiry:2030-02-25:1',
    });
  });

  it('keys carry the expiry date and threshold', () => {
    expect(decide(watched(), ok('2030-03-11'), day('2030-03-01'), LEAD).expiry?.key).toBe(
      'expiry:2030-03-11:14',
    );
  });
});

describe('renewal', () => {
  it('an expiry date that moves later is one renewed line, and its thresholds start over', () => {
    const domain = new Simulated();
    expect(domain.check(ok('2030-03-08'), day('2030-03-01'))).toMatchObject([
      { kind: 'expiry', threshold: 7 },
    ]);
    const renewed = domain.check(ok('2031-03-08'), day('2030-03-02'));
    expect(renewed).toEqual([
      {
        kind: 'renewed',
        domain: 'example.com',
        unicode: 'example.com',
        from: '2030-03-08',
        to: '2031-03-08',
      },
    ]);
    expect(domain.check(ok('2031-03-08'), day('2030-03-03'))).toEqual([]);
    // A year on, the new date crosses 30, 14, 7 … again (new keys: the date is part of them).
    expect(domain.check(ok('2031-03-08'), day('2031-02-06'))).toMatchObject([
      { kind: 'expiry', threshold: 30 },
    ]);
    expect(domain.check(ok('2031-03-08'), day('2031-03-01'))).toMatchObject([
      { kind: 'expiry', threshold: 7 },
    ]);
  });

  it('renewed by a few days only: renewed, and the new date’s own threshold', () => {
    const domain = new Simulated();
    domain.check(ok('2030-03-04'), day('2030-03-01'));
    const alerts = domain.check(ok('2030-03-11'), day('2030-03-02'));
    expect(alerts).toEqual([
      expect.objectContaining({ kind: 'renewed', from: '2030-03-04', to: '2030-03-11' }),
      expect.objectContaining({ kind: 'expiry', expiryDate: '2030-03-11', daysLeft: 9, threshold: 14 }),
    ]);
  });

  it('an expiry date moving earlier is no renewal', () => {
    const seen = watched({
      status: 'ok',
      expiryDate: '2031-01-01',
      active: true,
      expired: false,
      transferredAway: false,
    });
    expect(decide(seen, ok('2030-12-01'), day('2030-03-01'), LEAD).onChange).toEqual([]);
  });

  it('a first expiry date (none known before) is no renewal', () => {
    const seen = watched({
      status: 'ok',
      expiryDate: null,
      active: true,
      expired: false,
      transferredAway: false,
    });
    expect(decide(seen, ok('2031-01-01'), day('2030-03-01'), LEAD).onChange).toEqual([]);
  });
});

describe('flags', () => {
  const known = () =>
    new Simulated({
      status: 'ok',
      expiryDate: '2031-01-01',
      active: true,
      expired: false,
      transferredAway: false,
    });
  const today = day('2030-03-01');

  it.each([
    ['active', { active: false }, true, false],
    ['expired', { expired: true }, false, true],
    ['transferredAway', { transferredAway: true }, false, true],
  ] as const)(
    '%s: the bad way is one alert at once, and the way back is information',
    (flag, bad, from, to) => {
      const domain = known();
      expect(domain.check(ok('2031-01-01', bad), today)).toEqual([
        { kind: 'flag', domain: 'example.com', unicode: 'example.com', flag, from, to, bad: true },
      ]);
      expect(domain.check(ok('2031-01-01', bad), today.plus({ days: 1 }))).toEqual([]);
      expect(domain.check(ok('2031-01-01'), today.plus({ days: 2 }))).toEqual([
        { kind: 'flag', domain: 'example.com', unicode: 'example.com', flag, from: to, to: from, bad: false },
      ]);
      expect(domain.check(ok('2031-01-01'), today.plus({ days: 3 }))).toEqual([]);
    },
  );

  it('several flags at once are one alert each', () => {
    const alerts = known().check(
      ok('2031-01-01', { active: false, expired: true, transferredAway: true }),
      today,
    );
    expect(alerts.map((a) => (a.kind === 'flag' ? [a.flag, a.bad] : a.kind))).toEqual([
      ['active', true],
      ['expired', true],
      ['transferredAway', true],
    ]);
  });

  it('a first sighting is no flag change, however the flags stand', () => {
    const decision = decide(
      watched(),
      ok('2031-01-01', { active: false, transferredAway: true }),
      today,
      LEAD,
    );
    expect(decision.onChange).toEqual([]);
    expect(decision.findings).toMatchObject({ status: 'ok', active: false, transferredAway: true });
  });
});

describe('not found (404)', () => {
  it('one not_found alert, then silence; back → known_again', () => {
    const domain = new Simulated({
      status: 'ok',
      expiryDate: '2031-01-01',
      active: true,
      expired: false,
      transferredAway: false,
    });
    const today = day('2030-03-01');
    expect(domain.check(NOT_FOUND, today)).toEqual([
      { kind: 'not_found', domain: 'example.com', unicode: 'example.com' },
    ]);
    for (let n = 1; n <= 5; n++) expect(domain.check(NOT_FOUND, today.plus({ days: n }))).toEqual([]);
    // What was known before the 404 is kept.
    expect(domain.state).toMatchObject({ status: 'not_found', expiryDate: '2031-01-01', active: true });
    expect(domain.check(ok('2031-01-01'), today.plus({ days: 6 }))).toEqual([
      { kind: 'known_again', domain: 'example.com', unicode: 'example.com' },
    ]);
    expect(domain.check(ok('2031-01-01'), today.plus({ days: 7 }))).toEqual([]);
    expect(domain.state.status).toBe('ok');
  });

  it('failures in between do not make the 404 repeat', () => {
    const domain = new Simulated({
      status: 'ok',
      expiryDate: '2031-01-01',
      active: true,
      expired: false,
      transferredAway: false,
    });
    const today = day('2030-03-01');
    expect(domain.check(NOT_FOUND, today)).toHaveLength(1);
    expect(domain.check(failed(), today.plus({ days: 1 }))).toEqual([]);
    expect(domain.state.status).toBe('not_found');
    expect(domain.check(NOT_FOUND, today.plus({ days: 2 }))).toEqual([]);
  });

  it('a domain unknown at its very first check is reported once', () => {
    const domain = new Simulated();
    expect(domain.check(NOT_FOUND, day('2030-03-01'))).toEqual([
      { kind: 'not_found', domain: 'example.com', unicode: 'example.com' },
    ]);
    expect(domain.check(NOT_FOUND, day('2030-03-02'))).toEqual([]);
  });
});

describe('failures', () => {
  it(`exactly one failing alert, at the ${FAILING_AFTER}rd failure in a row; a success resets the count`, () => {
    const domain = new Simulated({
      status: 'ok',
      expiryDate: '2031-01-01',
      active: true,
      expired: false,
      transferredAway: false,
    });
    let today = day('2030-03-01');
    const next = () => {
      today = today.plus({ days: 1 });
      return today;
    };
    const failing = (n: number) => [
      { kind: 'failing', domain: 'example.com', unicode: 'example.com', failures: n, reason: 'upstream' },
    ];
    expect(domain.check(failed('upstream'), next())).toEqual([]);
    expect(domain.check(failed('upstream'), next())).toEqual([]);
    expect(domain.check(failed('upstream'), next())).toEqual(failing(3));
    for (let n = 4; n <= 8; n++) expect(domain.check(failed('upstream'), next())).toEqual([]);
    expect(domain.state.failures).toBe(8);

    expect(domain.check(ok('2031-01-01'), next())).toEqual([]);
    expect(domain.state.failures).toBe(0);
    // Two failures, a success, two failures: never three in a row.
    for (const observation of [failed(), failed(), ok('2031-01-01'), failed(), failed()])
      expect(domain.check(observation, next())).toEqual([]);
    expect(domain.check(failed('upstream'), next())).toEqual(failing(3));
  });

  it('a failure keeps the stored findings', () => {
    const seen = watched({
      status: 'ok',
      failures: 1,
      expiryDate: '2030-03-20',
      active: false,
      expired: true,
      transferredAway: false,
    });
    const decision = decide(seen, failed('timeout'), day('2030-03-01'), LEAD);
    expect(decision.findings).toEqual({ ...findingsOf(seen), failures: 2 });
    expect(decision.onChange).toEqual([]);
    // Nothing was looked up, so no threshold is decided on the old date either.
    expect(decision.expiry).toBeUndefined();
  });

  it('a new domain that fails is marked failed (not new), without inventing findings', () => {
    const decision = decide(watched(), failed('network'), day('2030-03-01'), LEAD);
    expect(decision.findings).toEqual({
      status: 'failed',
      failures: 1,
      expiryDate: null,
      active: null,
      expired: null,
      transferredAway: null,
    });
  });

  it('a failing alert carries the reason', () => {
    const decision = decide(
      watched({ failures: FAILING_AFTER - 1 }),
      failed('rate limited'),
      day('2030-03-01'),
      LEAD,
    );
    expect(decision.onChange).toEqual([
      { kind: 'failing', domain: 'example.com', unicode: 'example.com', failures: 3, reason: 'rate limited' },
    ]);
  });
});

describe('no repeat after restart', () => {
  it('deciding again on the stored findings (same day, same answer) alerts nothing', () => {
    const domain = new Simulated({ domain: 'xn--bcher-kva.de', unicode: 'bücher.de' });
    const today = day('2030-03-01');
    const first = domain.check(ok('2030-03-04'), today);
    expect(first).toEqual([
      {
        kind: 'expiry',
        domain: 'xn--bcher-kva.de',
        unicode: 'bücher.de',
        expiryDate: '2030-03-04',
        daysLeft: 3,
        threshold: 3,
      },
    ]);
    // A restarted process reads the row back: the same decision finds nothing changed, and the one
    // expiry key it yields was claimed already.
    const again = decide(domain.state, ok('2030-03-04'), today, LEAD);
    expect(again.onChange).toEqual([]);
    expect(again.findings).toEqual(findingsOf(domain.state));
    expect(domain.claimed.has(`xn--bcher-kva.de|${again.expiry?.key}`)).toBe(true);
    expect(domain.check(ok('2030-03-04'), today)).toEqual([]);
  });

  it('after a flag flip, a 404 and a failure streak, a second decide on the stored state is silent', () => {
    const today = day('2030-03-01');
    const scenarios: [Partial<WatchedDomain>, Observation][] = [
      [
        { status: 'ok', expiryDate: '2031-01-01', active: true, expired: false, transferredAway: false },
        ok('2031-01-01', { active: false }),
      ],
      [
        { status: 'ok', expiryDate: '2031-01-01', active: true, expired: false, transferredAway: false },
        NOT_FOUND,
      ],
      [
        {
          status: 'ok',
          failures: 2,
          expiryDate: '2031-01-01',
          active: true,
          expired: false,
          transferredAway: false,
        },
        failed(),
      ],
    ];
    for (const [initial, observation] of scenarios) {
      const domain = new Simulated(initial);
      expect(domain.check(observation, today)).toHaveLength(1);
      // Same observation, from the stored row (a failure is a new failure, hence 4: still silent).
      expect(decide(domain.state, observation, today, LEAD).onChange).toEqual([]);
    }
  });
});
