import { describe, expect, it } from 'vitest';
import { signatureCheck } from '../../../src/discord/http/verifySignature.js';
import { InteractionSigner } from '../../support/interactionSigner.js';

describe('signatureCheck', () => {
  const signer = new InteractionSigner();
  const check = signatureCheck(signer.publicKey);
  const body = Buffer.from('{"type":1}');
  const signed = signer.headers(body, 1_700_000_000);
  const signature = signed['x-signature-ed25519'];
  const timestamp = signed['x-signature-timestamp'];

  it('accepts the application key’s signature over timestamp + body, in either case of hex', () => {
    expect(check(signature, timestamp, body)).toBe(true);
    expect(check(signature.toUpperCase(), timestamp, body)).toBe(true);
    expect(signatureCheck(signer.publicKey.toUpperCase())(signature, timestamp, body)).toBe(true);
  });

  it('refuses anything else', () => {
    expect(check(undefined, timestamp, body)).toBe(false);
    expect(check(signature, undefined, body)).toBe(false);
    expect(check(signature, '1700000001', body)).toBe(false);
    expect(check(signature, timestamp, Buffer.from('{"type":1} '))).toBe(false);
    expect(check(signature.slice(2), timestamp, body)).toBe(false);
    expect(check(`${signature.slice(0, -2)}zz`, timestamp, body)).toBe(false);
    expect(check(`${signature}00`, timestamp, body)).toBe(false);
    expect(check(signature, timestamp, Buffer.alloc(0))).toBe(false);
    // Another application's key.
    expect(signatureCheck(new InteractionSigner().publicKey)(signature, timestamp, body)).toBe(false);
  });
});
