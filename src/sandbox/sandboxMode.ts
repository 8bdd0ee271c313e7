/**
 * `HOSTING_API_URL=sandbox` selects the built-in sandbox of the hosting API instead of a real provider.
 * Kept free of imports so configuration parsing can use it without loading the sandbox server.
 */
export const SANDBOX_URL = 'sandbox';

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
