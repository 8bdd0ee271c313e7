// The registry's findings, pure: what the store held, what the registry says now, the provider's date.
import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n/Translator.js';
import { decideRegistry, type RegistryAnswer } from '../../src/rdap/registryFindings.js';
import type { RegistryRecord } from '../../src/store/index.js';
import { alertLine } from '../../src/watch/renderDigest.js';

const ZONE = 'Europe/Berlin';
const READ = new Date('2030-03-01T07:00:00Z');

const ok = (fields: Partial<Extract<RegistryAnswer, { kind: 'ok' }>> = {}): RegistryAnswer => ({
  kind: 'ok',
  server: 'https://rdap.example',
  expiresAt: '2031-01-10T12:00:00.000Z',
  statuses: ['active', 'client transfer prohibited'],
  nameservers: ['a.ns.example', 'b.ns.example'],
  delegationSigned: false,
  ...fields,
});

function decide(
  answer: RegistryAnswer,
  previous?: RegistryRecord,
  providerExpiry: string | null = '2031-01-10',
  more = {},
) {
  return decideRegistry({
    domain: 'example.com',
    unicode: 'example.com',
    previous,
    answer,
    providerExpiry,
    timeZone: ZONE,
    readAt: READ,
    ownNameservers: false,
    watched: true,
    ...more,
  });
}

/** Applies each answer in turn as the store would, returning the kinds of what each reported. */
function sequence(answers: RegistryAnswer[], providerExpiry = '2031-01-10'): string[][] {
  let previous: RegistryRecord | undefined;
  return answers.map((answer, i) => {
    const { record, alerts } = decide(answer, previous, providerExpiry);
    previous = { ...record, version: i + 1 };
    return alerts.map((a) => a.kind);
  });
}

describe('decideRegistry', () => {
  it('expiry differs: only past one calendar day in the API zone, with both dates', () => {
    // 23:30 UTC on the 10th is the 11th in Berlin: one day apart, not a finding.
    expect(decide(ok({ expiresAt: '2031-01-10T23:30:00.000Z' })).alerts).toEqual([]);
    expect(decide(ok({ expiresAt: '2031-01-09T00:00:00.000Z' })).alerts).toEqual([]);
    // 23:30 UTC on the 11th is the 12th in Berlin: two days apart.
    expect(decide(ok({ expiresAt: '2031-01-11T23:30:00.000Z' })).alerts).toEqual([
      {
        kind: 'registry_expiry_differs',
        domain: 'example.com',
        unicode: 'example.com',
        registryDate: '2031-01-12',
        providerDate: '2031-01-10',
      },
    ]);
    // Across the switch to summer time (2031-03-30): dates, not hours, are compared.
    expect(decide(ok({ expiresAt: '2031-03-30T22:30:00.000Z' }), undefined, '2031-03-31').alerts).toEqual([]);
    // Without the provider's date there is nothing to compare.
    expect(decide(ok({ expiresAt: '2040-01-01T00:00:00.000Z' }), undefined, null).alerts).toEqual([]);
  });

  it('each finding once per change: set, held, cleared, set again', () => {
    const held = ok({ statuses: ['client hold', 'client transfer prohibited'] });
    expect(sequence([held, held, ok(), held])).toEqual([['registry_held'], [], [], ['registry_held']]);
    const pending = ok({ statuses: ['pending transfer', 'client transfer prohibited'] });
    expect(sequence([ok(), pending, pending])).toEqual([[], ['registry_transfer_pending'], []]);
  });

  it('transfer lock off: only where it was on before, and it stays flagged until it is back', () => {
    const unlocked = ok({ statuses: ['active'] });
    expect(sequence([unlocked, unlocked])).toEqual([[], []]);
    expect(sequence([ok(), unlocked, unlocked, ok(), unlocked])).toEqual([
      [],
      ['registry_transfer_lock_off'],
      [],
      [],
      ['registry_transfer_lock_off'],
    ]);
  });

  it('nameservers changed: from the last set seen, unless HostOps sent the new one', () => {
    const moved = ok({ nameservers: ['c.ns.example', 'd.ns.example'] });
    expect(sequence([ok(), moved, moved])).toEqual([[], ['registry_nameservers_changed'], []]);
    const first = decide(ok());
    const own = decide(moved, { ...first.record, version: 1 }, '2031-01-10', { ownNameservers: true });
    expect(own.alerts).toEqual([]);
    expect(own.record.nameservers).toEqual(['c.ns.example', 'd.ns.example']);
  });

  it('an unreadable answer is a finding, keeps what was read before, and is no news about the domain', () => {
    const unreadable: RegistryAnswer = {
      kind: 'unreadable',
      server: 'https://rdap.example',
      why: 'not JSON',
    };
    const kinds = sequence([ok(), unreadable, unreadable, ok()]);
    expect(kinds).toEqual([[], ['registry_unreadable'], [], []]);
    const first = decide(ok());
    const after = decide(unreadable, { ...first.record, version: 1 });
    expect(after.record).toMatchObject({
      outcome: 'unreadable',
      expiresAt: '2031-01-10T12:00:00.000Z',
      flags: ['unreadable'],
    });
  });

  it('a domain not watched keeps its answer but no flags, and reports nothing', () => {
    const held = ok({ statuses: ['client hold'] });
    const { record, alerts } = decide(held, undefined, '2031-01-10', { watched: false });
    expect(alerts).toEqual([]);
    expect(record).toMatchObject({ statuses: ['client hold'], flags: [], watched: false });
  });

  it('expiry differs says which date is earlier, either way, in English and German', () => {
    // A renewal charged but not passed on: the registry still has the old date.
    const renewalLost = decide(ok({ expiresAt: '2030-01-10T12:00:00.000Z' })).alerts;
    const registryLater = decide(ok({ expiresAt: '2032-01-10T12:00:00.000Z' })).alerts;
    const lines = (t: ReturnType<typeof translator>) =>
      [...renewalLost, ...registryLater].map((alert) => alertLine(alert, t));
    expect(lines(translator('en'))).toEqual([
      "📅 **example.com**: the registry says it expires 2030-01-10, the provider 2031-01-10 (the registry's date is earlier)",
      "📅 **example.com**: the registry says it expires 2032-01-10, the provider 2031-01-10 (the provider's date is earlier)",
    ]);
    expect(lines(translator('de'))).toEqual([
      '📅 **example.com**: laut Registry läuft sie am 10.01.2030 ab, laut Provider am 10.01.2031 (das Datum der Registry ist früher)',
      '📅 **example.com**: laut Registry läuft sie am 10.01.2032 ab, laut Provider am 10.01.2031 (das Datum des Providers ist früher)',
    ]);
  });
});
