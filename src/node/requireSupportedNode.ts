// The first thing every entry point runs, before any module that could load the native SQLite module: on an
// unsupported Node (Node 20 segfaults as the store opens) the process says so in one line and exits. Entry
// points import only this module statically and load the rest with `await import()`, so in the bundle
// nothing but this (and package.json's engines) is evaluated before the check.
import packageJson from '../../package.json' with { type: 'json' };

/** package.json's engines.node: alternatives of `^major.minor.patch`, e.g. `^22.16.0 || ^24.21.0`. */
export const SUPPORTED_NODE: string = packageJson.engines.node;

/** Exit code of a process started on an unsupported Node: as an invalid configuration (EX_CONFIG). */
export const UNSUPPORTED_NODE_EXIT = 78;

type Version = readonly [major: number, minor: number, patch: number];

function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** The floors of each supported line, lowest first; throws when engines uses anything but `^x.y.z`. */
export function supportedFloors(range: string = SUPPORTED_NODE): Version[] {
  return range
    .split('||')
    .map((alternative) => {
      const floor = /^\s*\^(\d+\.\d+\.\d+)\s*$/.exec(alternative);
      const version = floor?.[1] === undefined ? undefined : parseVersion(floor[1]);
      if (!version)
        throw new Error(`engines.node alternative "${alternative.trim()}" is not ^major.minor.patch`);
      return version;
    })
    .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
}

/** Whether `version` (e.g. `v24.21.0` or `22.16.1`) is in one of the supported lines at or above its floor. */
export function isSupportedNode(version: string, range: string = SUPPORTED_NODE): boolean {
  const found = parseVersion(version);
  if (!found) return false;
  return supportedFloors(range).some(
    ([major, minor, patch]) =>
      found[0] === major && (found[1] > minor || (found[1] === minor && found[2] >= patch)),
  );
}

/** The one line an unsupported Node gets: the version found, the versions supported, the command to run. */
export function unsupportedNodeLine(found: string, command: string, range: string = SUPPORTED_NODE): string {
  const lines = supportedFloors(range)
    .map(([major, minor, patch]) => `${major}.${minor}.${patch} or a later ${major}`)
    .join(', or ');
  return (
    `HostOps needs Node ${lines}; this is Node ${found.replace(/^v/, '')}. ` +
    `Run it on a supported Node, fetched once if the machine has none: scripts/with-supported-node ${command}`
  );
}

/** Exits with one line on stderr unless the running Node is supported. */
export function requireSupportedNode(command: string): void {
  const found = process.versions.node;
  if (isSupportedNode(found)) return;
  process.stderr.write(`${unsupportedNodeLine(found, command)}\n`);
  process.exit(UNSUPPORTED_NODE_EXIT);
}
