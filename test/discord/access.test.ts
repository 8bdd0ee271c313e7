import { describe, expect, it } from 'vitest';
import { memberTier, tierAllows } from '../../src/access/tiers.js';

const access = {
  viewerRoleIds: ['1'],
  operatorRoleIds: ['2'],
  adminRoleIds: ['3'],
  channelIds: [],
};

describe('tiers', () => {
  it('takes the highest configured role a member holds', () => {
    expect(memberTier(new Set(['1']), access)).toBe('viewer');
    expect(memberTier(new Set(['1', '2']), access)).toBe('operator');
    expect(memberTier(new Set(['3']), access)).toBe('admin');
    expect(memberTier(new Set(['9']), access)).toBe('everyone');
  });

  it('is cumulative: an admin without the viewer role may still read', () => {
    expect(tierAllows(memberTier(new Set(['3']), access), 'viewer')).toBe(true);
    expect(tierAllows(memberTier(new Set(['2']), access), 'admin')).toBe(false);
    expect(tierAllows('viewer', 'operator')).toBe(false);
    expect(tierAllows('everyone', 'everyone')).toBe(true);
  });

  it('no viewer roles configured means every member may read; no operator roles means nobody may change', () => {
    const open = { ...access, viewerRoleIds: [], operatorRoleIds: [], adminRoleIds: [] };
    expect(memberTier(new Set(), open)).toBe('viewer');
    expect(tierAllows(memberTier(new Set(['2', '3']), open), 'operator')).toBe(false);
  });
});
