import { createPublicKey, verify } from 'node:crypto';

// DER of SubjectPublicKeyInfo for Ed25519 up to the key itself: the raw 32 bytes the developer portal
// shows go after it, and node:crypto reads the whole as an ordinary public key.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const SIGNATURE_HEX = /^[0-9a-fA-F]{128}$/;

/** Checks a request's X-Signature-Ed25519 over X-Signature-Timestamp + raw body. */
export type SignatureCheck = (
  signature: string | undefined,
  timestamp: string | undefined,
  body: Buffer,
) => boolean;

/**
 * Discord signs every request it sends to the interactions endpoint with the application's key; anything
 * without a valid signature (Discord sends such requests on purpose) is not from Discord.
 */
export function signatureCheck(publicKeyHex: string): SignatureCheck {
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
  return (signature, timestamp, body) => {
    // Buffer.from(…, 'hex') would quietly drop what is not hex; a malformed header is simply invalid.
    if (signature === undefined || timestamp === undefined || !SIGNATURE_HEX.test(signature)) return false;
    return verify(
      null,
      Buffer.concat([Buffer.from(timestamp, 'utf8'), body]),
      key,
      Buffer.from(signature, 'hex'),
    );
  };
}
