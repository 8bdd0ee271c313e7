import { describe, expect, it } from 'vitest';
import { AccessPolicy, type Asked } from '../../src/access/AccessPolicy.js';
import type { Grant } from '../../src/access/Grant.js';
import { parsePattern, patternResource, resourceOf } from '../../src/access/patterns.js';
import type { AccessConfig } from '../../src/config.js';

const NOW = new Date('2030-01-01T12:00:00Z');
const access: AccessConfig = {
  viewerRoleIds: ['v'],
  operatorRoleIds: ['o'],
  adminRoleIds: ['a'],
  channelIds: [],
};
const grant = (overrides: Partial<Grant>): Grant => ({
  id: 'g1',
  subject: { kind: 'role', id: 'support' },
  what: ['domain dns', 'server rdns'],
  patterns: ['*.acme.example', 'server:100-199'],
  until: null,
  createdBy: 'admin',
  createdAt: NOW,
  requestId: null,
  ...overrides,
});
const dns = (domain: string): Asked => ({
  command: 'domain dns',
  tier: 'operator',
  kind: 'change',
  resources: [resourceOf('domain', domain)].filter((r) => r !== undefined),
});
const rdns = (server: number, ip: string): Asked => ({
  command: 'server rdns',
  tier: 'operator',
  kind: 'change',
  resources: [resourceOf('server', server), resourceOf('ip', ip)].filter((r) => r !== undefined),
});
const who = (...roles: string[]) => ({ userId: 'u1', roleIds: new Set(roles) });

describe('AccessPolicy', () => {
  it('without grants is the role tiers on everything', () => {
    const policy = new AccessPolicy([], access);
    expect(policy.decide(who('o'), dns('any.example'), NOW)).toMatchObject({
      allowed: true,
      grant: { id: 'OPERATOR_ROLE_IDS' },
    });
    expect(policy.decide(who('v'), dns('any.example'), NOW)).toMatchObject({
      allowed: false,
      approvers: [
        { kind: 'role', id: 'o' },
        { kind: 'role', id: 'a' },
      ],
    });
    expect(policy.decide(who(), { ...dns('x.example'), tier: 'everyone', kind: 'info' }, NOW).allowed).toBe(
      true,
    );
  });

  it('a scoped grant allows inside its patterns only, naming what is not covered', () => {
    const policy = new AccessPolicy([grant({})], access);
    expect(policy.decide(who('support'), dns('shop.acme.example'), NOW)).toMatchObject({
      allowed: true,
      grant: { id: 'g1' },
    });
    const outside = policy.decide(who('support'), dns('shop.other.example'), NOW);
    expect(outside).toMatchObject({
      allowed: false,
      uncovered: [{ kind: 'domain', ascii: 'shop.other.example' }],
    });
    expect(policy.decide(who('support'), rdns(150, '198.51.100.7'), NOW).allowed).toBe(true);
    expect(policy.decide(who('support'), rdns(250, '198.51.100.7'), NOW).allowed).toBe(false);
    // A grant that names addresses constrains them too.
    const withIp = new AccessPolicy([grant({ patterns: ['server:100-199', 'ip:203.0.113.0/24'] })], access);
    expect(withIp.decide(who('support'), rdns(150, '198.51.100.7'), NOW).allowed).toBe(false);
    expect(withIp.decide(who('support'), rdns(150, '203.0.113.7'), NOW).allowed).toBe(true);
    // Other commands, and changes naming no resource, need a grant of their own.
    expect(
      policy.decide(
        who('support'),
        { command: 'musicbot create', tier: 'operator', kind: 'change', resources: [] },
        NOW,
      ).allowed,
    ).toBe(false);
  });

  it('a grant ends at its until, not a millisecond later', () => {
    const until = new Date(NOW.getTime() + 3_600_000);
    const policy = new AccessPolicy(
      [grant({ subject: { kind: 'user', id: 'u1' }, what: ['operator'], patterns: ['*'], until })],
      access,
    );
    expect(policy.decide(who(), dns('x.example'), new Date(until.getTime() - 1)).allowed).toBe(true);
    expect(policy.decide(who(), dns('x.example'), until).allowed).toBe(false);
  });

  it('reads within the patterns of any grant held', () => {
    const policy = new AccessPolicy([grant({})], access);
    const scope = policy.readScope(who('support'), NOW);
    const domain = (d: string) => resourceOf('domain', d) ?? { kind: 'server' as const, id: -1 };
    expect(scope.everything).toBe(false);
    expect(scope.covers(domain('shop.acme.example'))).toBe(true);
    expect(scope.covers(domain('shop.other.example'))).toBe(false);
    expect(policy.readScope(who('v'), NOW)).toMatchObject({ everything: true });
  });

  // An /access request's approver must hold each right on the whole of each pattern asked for.
  it.each([
    ['*.acme.example', '*.shop.acme.example', true],
    ['*.acme.example', '*.acme.example', true],
    ['*.acme.example', 'shop.acme.example', true],
    ['*.acme.example', 'acme.example', false],
    ['*.shop.acme.example', '*.acme.example', false],
    ['*.acme.example', '*', false],
    ['shop.acme.example', '*.shop.acme.example', false],
    ['server:100-199', 'server:120-130', true],
    ['server:100-199', 'server:150-250', false],
    ['ip:203.0.113.0/24', 'ip:203.0.113.16/28', true],
    ['ip:203.0.113.0/24', 'ip:203.0.0.0/16', false],
    ['ip:203.0.113.0/24', 'ip:2001:db8::/32', false],
    ['*', '*', true],
  ])('a grant on %s holds a request on %s: %s', (held, requested, holds) => {
    const policy = new AccessPolicy(
      [grant({ subject: { kind: 'user', id: 'u1' }, patterns: [held] })],
      access,
    );
    const asked: Asked = {
      command: 'domain dns',
      tier: 'operator',
      kind: 'change',
      resources: [patternResource(parsePattern(requested))],
    };
    expect(policy.decide(who(), asked, NOW).allowed).toBe(holds);
  });
});
