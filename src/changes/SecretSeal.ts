import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { maskSecret } from './maskSecret.js';

/** A secret as a change record keeps it while the change may still be sent: encrypted, with its mask. */
export interface SealedSecret {
  sealed: string;
  /** What records and messages show of it: its last four characters (maskSecret). */
  mask: string;
}

const VERSION = 'v1';

export function isSealed(value: unknown): value is SealedSecret {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SealedSecret).sealed === 'string' &&
    typeof (value as SealedSecret).mask === 'string'
  );
}

/**
 * Encrypts the secrets a waiting change still needs (a licence key, for up to the approval's 7 days),
 * so the store, its backups and a copy of them never hold one in clear. The key is derived from
 * HOSTING_API_TOKEN: every replica that can send the change has it, the database never does, and a
 * rotated token makes a waiting secret unreadable rather than wrong (the change then fails, unsent).
 */
export class SecretSeal {
  readonly #key: Buffer;

  constructor(material: string) {
    this.#key = Buffer.from(hkdfSync('sha256', material, 'hostops', 'change record secrets', 32));
  }

  seal(value: string): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    const parts = [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'));
    return { sealed: [VERSION, ...parts].join('.'), mask: maskSecret(value) };
  }

  /** The secret, or undefined when this key cannot open it (another HOSTING_API_TOKEN, or damage). */
  unseal(value: SealedSecret): string | undefined {
    const [version, iv, body, tag] = value.sealed.split('.');
    if (version !== VERSION || iv === undefined || body === undefined || tag === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const clear = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      return clear.toString('utf8');
    } catch {
      return undefined;
    }
  }
}
