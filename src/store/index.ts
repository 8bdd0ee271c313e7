export { type OpenStoreOptions, openStore } from './openStore.js';
export type * from './Store.js';
export { redactDatabaseUrl, StoreOpenError } from './StoreOpenError.js';
