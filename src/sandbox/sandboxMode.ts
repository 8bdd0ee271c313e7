/**
 * `HOSTING_API_URL=sandbox` selects the built-in sandbox of the hosting API instead of a real provider.
 * Kept free of imports so configuration parsing can use it without loading the sandbox server.
 */
export const SANDBOX_URL = 'sandbox';

/**
 * The sandbox's store, whatever DATABASE_URL says: SQLite in this process's memory, gone when it exits.
 * Made-up DNS sets, watch findings and `done` audit entries never reach a real store, where
 * `/domain records`, Revert and the watch's gauges would take them for real.
 */
export const SANDBOX_DATABASE_URL = 'sqlite::memory:';

/** The marker every answer that came from the sandbox shows. */
export const SANDBOX_LABEL = 'SANDBOX';

/** True when `HOSTING_API_URL` names the built-in sandbox rather than a real API. */
export function isSandboxUrl(value: string | undefined): boolean {
  return value === SANDBOX_URL;
}

/** True when the configured hosting API is the built-in sandbox: answers are not real. */
export function isSandbox(config: { hosting: { sandbox: boolean } }): boolean {
  return config.hosting.sandbox;
}
