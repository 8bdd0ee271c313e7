import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSealed, type SealedSecret, SecretSeal } from '../../src/changes/SecretSeal.js';

const TOKEN = 'the hosting api token';
const HERE = { record: 'rec-1', field: 'license' };

/** A value as HostOps sealed it before values were bound to their record (v1: no associated data). */
function sealedV1(token: string, value: string): SealedSecret {
  const key = Buffer.from(hkdfSync('sha256', token, 'hostops', 'change record secrets', 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  const parts = [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'));
  return { sealed: ['v1', ...parts].join('.'), mask: `…${value.slice(-4)}` };
}

describe('SecretSeal', () => {
  const seal = new SecretSeal(TOKEN);

  it('seals a secret so that neither it nor its encodings appear, and opens it again', () => {
    const sealed = seal.seal('LICENSE-KEY-9876', HERE);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed.mask).toBe('…9876');
    expect(sealed.sealed).toMatch(/^v2\./);
    expect(JSON.stringify(sealed)).not.toMatch(/LICENSE|KEY-9876|TElDRU5TRS/);
    expect(seal.unseal(sealed, HERE)).toBe('LICENSE-KEY-9876');
    // A fresh nonce each time: the same key never seals to the same text.
    expect(seal.seal('LICENSE-KEY-9876', HERE).sealed).not.toBe(sealed.sealed);
  });

  it('opens only for the record and field it was sealed for', () => {
    const sealed = seal.seal('LICENSE-KEY-9876', HERE);
    expect(seal.unseal(sealed, { ...HERE, record: 'rec-2' })).toBeUndefined();
    expect(seal.unseal(sealed, { ...HERE, field: 'password' })).toBeUndefined();
    // The pair is one value: a record id and field cannot be shifted into each other.
    const joined = seal.seal('LICENSE-KEY-9876', { record: 'a', field: 'bc' });
    expect(seal.unseal(joined, { record: 'ab', field: 'c' })).toBeUndefined();
  });

  it('cannot be opened with another token, nor once tampered with', () => {
    const sealed = seal.seal('LICENSE-KEY-9876', HERE);
    expect(new SecretSeal('a rotated token').unseal(sealed, HERE)).toBeUndefined();
    const [version, iv, body, tag] = sealed.sealed.split('.');
    const flipped = `${body?.[0] === 'A' ? 'B' : 'A'}${body?.slice(1)}`;
    expect(seal.unseal({ ...sealed, sealed: [version, iv, flipped, tag].join('.') }, HERE)).toBeUndefined();
    // A tag cut short is refused, not checked on its first bytes.
    const short = Buffer.from(tag ?? '', 'base64url')
      .subarray(0, 4)
      .toString('base64url');
    expect(seal.unseal({ ...sealed, sealed: [version, iv, body, short].join('.') }, HERE)).toBeUndefined();
    expect(seal.unseal({ ...sealed, sealed: 'v3.x.y.z' }, HERE)).toBeUndefined();
    expect(seal.unseal({ ...sealed, sealed: 'garbage' }, HERE)).toBeUndefined();
  });

  it('does not open a value sealed before the binding (v1), nor one relabelled as bound', () => {
    const old = sealedV1(TOKEN, 'LICENSE-KEY-9876');
    expect(seal.unseal(old, HERE)).toBeUndefined();
    expect(seal.unseal({ ...old, sealed: old.sealed.replace(/^v1\./, 'v2.') }, HERE)).toBeUndefined();
  });
});
