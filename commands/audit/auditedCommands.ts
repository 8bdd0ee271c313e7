/**
 * Every command path HostOps has, as `/audit command` offers them. Kept by hand (deriving it from
 * commands/index.ts would import this module into itself); commands/index.ts holds it to the
 * definitions, so a command added or renamed without it fails the typecheck.
 */
export const AUDITED_COMMANDS = [
  'server logs',
  'server rdns',
  'domain info',
  'domain expiry',
  'domain register',
  'domain dns',
  'domain records',
  'musicbot create',
  'panel bind',
  'help',
  'audit',
  'watch add',
  'watch remove',
  'watch list',
  'watch check',
  'watch calendar',
  'access grant',
  'access revoke',
  'access request',
  'access list',
  'access explain',
  'access export',
  'access import',
] as const;
export type AuditedCommand = (typeof AUDITED_COMMANDS)[number];
