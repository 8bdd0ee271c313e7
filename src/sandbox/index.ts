export { type HostingEndpoint, openHostingEndpoint } from './hostingEndpoint.js';
export {
  createSandboxState,
  DOMAIN_SEEDS,
  SANDBOX_SERVER_IDS,
  type SandboxDomain,
  type SandboxState,
  sandboxDirectory,
} from './sandboxData.js';
export { isSandbox, isSandboxUrl, SANDBOX_DATABASE_URL, SANDBOX_LABEL, SANDBOX_URL } from './sandboxMode.js';
export { SANDBOX_HEADER, type Sandbox, type SandboxOptions, startSandbox } from './startSandbox.js';
