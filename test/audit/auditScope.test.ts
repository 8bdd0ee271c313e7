import { describe, expect, it } from 'vitest';
import { AccessPolicy } from '../../src/access/AccessPolicy.js';
import { auditEntryVisible } from '../../src/audit/auditScope.js';

const NOW = new Date('2030-01-01T12:00:00Z');
const policy = new AccessPolicy(
  [
    {
      id: 'g1',
      subject: { kind: 'role', id: 'support' },
      what: ['operator'],
      patterns: ['*.acme.example', 'server:100-199'],
      until: null,
      createdBy: 'admin',
      createdAt: NOW,
      requestId: null,
    },
  ],
  { viewerRoleIds: ['v'], operatorRoleIds: ['o'], adminRoleIds: ['a'], channelIds: [] },
);
const scope = policy.readScope({ userId: 'u', roleIds: new Set(['support']) }, NOW);
const entry = (target: string | null, parameters: Record<string, unknown> | null = null) => ({
  target,
  parameters,
});

describe('auditEntryVisible', () => {
  it.each([
    [entry('shop.acme.example'), true],
    [entry('a.acme.example b.acme.example'), true],
    [entry('server 150'), true],
    [entry('server 150 203.0.113.7', { serverId: 150, ip: '203.0.113.7' }), true],
    [entry('SHOP.ACME.EXAMPLE'), true],
    [entry('acme.example'), false],
    [entry('shop.other.example'), false],
    [entry('a.acme.example c.other.example'), false],
    [entry('server 250'), false],
    [entry('203.0.113.7'), false],
    [entry('role:200000000000000052'), false],
    [entry('a.acme.example sho…'), false],
    [entry(null), false],
    [entry('7d, export'), false],
    [entry('x.acme.example', { domain: 'x.other.example' }), false],
  ])('%o: %s', (e, visible) => {
    expect(auditEntryVisible(scope, e)).toBe(visible);
  });

  it('a reader of everything sees every entry', () => {
    const viewer = policy.readScope({ userId: 'u', roleIds: new Set(['v']) }, NOW);
    expect(auditEntryVisible(viewer, entry(null))).toBe(true);
    expect(auditEntryVisible(viewer, entry('shop.other.example'))).toBe(true);
  });
});
