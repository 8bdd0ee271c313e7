/** The access changes: written to the store by their `send`, never sent to the provider. */
export const ACCESS_OPERATIONS = ['accessGrant', 'accessRevoke', 'accessImport', 'accessRequest'] as const;
export type AccessOperation = (typeof ACCESS_OPERATIONS)[number];
