export { TARGET_SUBSTRING_MIN } from './auditQueries.js';
export { type OpenStoreOptions, openStore } from './openStore.js';
export { LEASE_MS, Presence } from './Presence.js';
export type * from './registryTypes.js';
export { REGISTRY_FLAGS } from './registryTypes.js';
export type * from './Store.js';
export { HANDED, NOT_HANDED } from './Store.js';
export { redactDatabaseUrl, StoreOpenError } from './StoreOpenError.js';
export { TargetBusyError } from './TargetBusyError.js';
