import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { maskSecret } from './maskSecret.js';

/** A secret as a change record keeps it while the change may still be sent: encrypted, with its mask. */
export interface SealedSecret {
  sealed: string;
  /** What records and messages show of it: its last four characters (maskSecret). */
  mask: string;
}

/** Where a sealed secret belongs: it opens there only. */
export interface SealedFor {
  /** The change record's id. */
  record: string;
  /** The parameter it is, e.g. `license`. */
  field: string;
}

// v1 (before the binding) sealed without associated data, so its values opened wherever they were moved.
// They are not opened any more: a change still waiting with one fails, unsent, saying so (as for a
// rotated token) — accepting them for their remaining days would let any v1 value be moved meanwhile.
const VERSION = 'v2';

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
 * Each value is bound to its record and field (AES-GCM's associated data): whoever can write the store
 * cannot make a key typed for one change be sent by another, or as another of its parameters.
 */
export class SecretSeal {
  readonly #key: Buffer;

  constructor(material: string) {
    this.#key = Buffer.from(hkdfSync('sha256', material, 'hostops', 'change record secrets', 32));
  }

  seal(value: string, place: SealedFor): SealedSecret {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(associatedData(place));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    const parts = [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url'));
    return { sealed: [VERSION, ...parts].join('.'), mask: maskSecret(value) };
  }

  /**
   * The secret, or undefined when it cannot be opened here: another HOSTING_API_TOKEN, another record or
   * field than it was sealed for, sealed before the binding (v1), or damage.
   */
  unseal(value: SealedSecret, place: SealedFor): string | undefined {
    const [version, iv, body, tag] = value.sealed.split('.');
    if (version !== VERSION || iv === undefined || body === undefined || tag === undefined) return undefined;
    try {
      // The whole 16-byte tag: GCM would otherwise accept a truncated one, far easier to forge.
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'), {
        authTagLength: 16,
      });
      decipher.setAAD(associatedData(place));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const clear = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      return clear.toString('utf8');
    } catch {
      return undefined;
    }
  }
}

// JSON: no record id and field can run into another pair's (a record id is url-safe, a field any key).
const associatedData = ({ record, field }: SealedFor) => Buffer.from(JSON.stringify([record, field]), 'utf8');
