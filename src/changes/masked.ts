import { maskSecret } from './maskSecret.js';
import { isSealed } from './SecretSeal.js';

/** The parameters with every secret, clear or sealed, replaced by its last four characters. */
export function masked(
  spec: { readonly secrets?: readonly string[] },
  parameters: object,
): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...parameters };
  for (const key of spec.secrets ?? []) {
    const value = copy[key];
    if (typeof value === 'string') copy[key] = maskSecret(value);
    else if (isSealed(value)) copy[key] = value.mask;
  }
  return copy;
}
