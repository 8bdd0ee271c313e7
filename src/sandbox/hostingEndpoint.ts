import type { Sandbox } from './startSandbox.js';

export interface HostingEndpoint {
  /** What HostingClient is given: the real API's, or the sandbox's made-up ones. */
  baseUrl: string;
  token: string;
  /** Set when the answers come from the built-in sandbox. */
  sandbox: Sandbox | undefined;
  /** Stops the sandbox, if one was started; nothing to do for a real API. */
  close(): Promise<void>;
}

/**
 * Where the hosting client should go: the configured API, or (`HOSTING_API_URL=sandbox`) a sandbox
 * started here, in-process. The bot and the console share this, so both run on the sandbox alike.
 */
export async function openHostingEndpoint(
  hosting: { baseUrl: string; token: string; sandbox: boolean; timeZone: string },
  options: { now?: () => Date } = {},
): Promise<HostingEndpoint> {
  if (!hosting.sandbox) {
    return { baseUrl: hosting.baseUrl, token: hosting.token, sandbox: undefined, close: async () => {} };
  }
  // Loaded on first use: a production bot never runs the sandbox.
  const { startSandbox } = await import('./startSandbox.js');
  const sandbox = await startSandbox({
    timeZone: hosting.timeZone,
    ...(options.now ? { now: options.now } : {}),
  });
  return { baseUrl: sandbox.url, token: sandbox.token, sandbox, close: () => sandbox.close() };
}
