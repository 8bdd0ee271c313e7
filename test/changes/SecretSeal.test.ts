import { describe, expect, it } from 'vitest';
import { isSealed, SecretSeal } from '../../src/changes/SecretSeal.js';

describe('SecretSeal', () => {
  const seal = new SecretSeal('the hosting api token');

  it('seals a secret so that neither it nor its encodings appear, and opens it again', () => {
    const sealed = seal.seal('LICENSE-KEY-9876');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed.mask).toBe('…9876');
    expect(JSON.stringify(sealed)).not.toMatch(/LICENSE|KEY-9876|TElDRU5TRS/);
    expect(seal.unseal(sealed)).toBe('LICENSE-KEY-9876');
    // A fresh nonce each time: the same key never seals to the same text.
    expect(seal.seal('LICENSE-KEY-9876').sealed).not.toBe(sealed.sealed);
  });

  it('cannot be opened with another token, nor once tampered with', () => {
    const sealed = seal.seal('LICENSE-KEY-9876');
    expect(new SecretSeal('a rotated token').unseal(sealed)).toBeUndefined();
    const [version, iv, body, tag] = sealed.sealed.split('.');
    const flipped = `${body?.[0] === 'A' ? 'B' : 'A'}${body?.slice(1)}`;
    expect(seal.unseal({ ...sealed, sealed: [version, iv, flipped, tag].join('.') })).toBeUndefined();
    expect(seal.unseal({ ...sealed, sealed: 'v2.x.y.z' })).toBeUndefined();
    expect(seal.unseal({ ...sealed, sealed: 'garbage' })).toBeUndefined();
  });
});
