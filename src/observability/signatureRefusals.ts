/**
 * Why the interactions endpoint refused a signature (a 401): counted by reason in
 * hostops_interaction_signature_refusals_total, never told to the client, which gets one body for all of
 * them — else an anonymous client could probe the store's clock by which body its timestamp gets.
 */
export const SIGNATURE_REFUSALS = ['missing', 'malformed', 'stale', 'invalid'] as const;
export type SignatureRefusal = (typeof SIGNATURE_REFUSALS)[number];
