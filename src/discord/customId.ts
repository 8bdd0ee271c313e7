/**
 * The one home of HostOps' custom ids: `hostops:<action>:<id or args>` on every button and modal. The
 * router reads them with `parseCustomId`; everything that makes one calls `customId`.
 */
const PATTERN = /^hostops:([a-z]+):(.*)$/s;

export function customId(action: string, id: string): string {
  return `hostops:${action}:${id}`;
}

export function parseCustomId(value: string): { action: string; id: string } | undefined {
  const match = PATTERN.exec(value);
  return match ? { action: match[1] ?? '', id: match[2] ?? '' } : undefined;
}
