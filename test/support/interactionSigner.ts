// The application's Ed25519 key pair as Discord holds it: the public key (64 hex characters, what the
// developer portal shows and DISCORD_PUBLIC_KEY takes) and the signature Discord puts on every request it
// sends to an Interactions Endpoint URL — over X-Signature-Timestamp followed by the raw body.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

export interface SignedHeaders {
  'x-signature-ed25519': string;
  'x-signature-timestamp': string;
  [name: string]: string;
}

export class InteractionSigner {
  readonly publicKey: string;
  readonly #privateKey: KeyObject;

  constructor() {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    // The raw key is the last 32 bytes of its SPKI DER encoding.
    this.publicKey = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
    this.#privateKey = privateKey;
  }

  /** Headers for a body sent at `timestamp` (Unix seconds; now unless given). */
  headers(body: string | Buffer, timestamp = Math.floor(Date.now() / 1000)): SignedHeaders {
    const stamp = String(timestamp);
    const signature = sign(null, Buffer.concat([Buffer.from(stamp), Buffer.from(body)]), this.#privateKey);
    return {
      'content-type': 'application/json',
      'x-signature-ed25519': signature.toString('hex'),
      'x-signature-timestamp': stamp,
    };
  }
}
