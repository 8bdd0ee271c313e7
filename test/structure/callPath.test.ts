// How far a command travels through HostOps' own files before the provider is called (issue 23): the
// stack at the moment the built bot creates its HTTP request to the hosting API, read through undici's
// `undici:request:create` diagnostics channel and mapped back to source files through the bundle's
// source maps. The async part of the stack holds every awaiting caller, so a file that merely forwards a
// call (and awaits it) shows up here.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { confirmAndWait, openPrompt } from '../support/e2eHelpers.js';
import { ROLES, startTestBot, type TestBot, tempDatabaseUrl } from '../support/startTestBot.js';

const FRAME = /\(?((?:file:\/\/)?\/[^()\s]+\.js):(\d+):(\d+)\)?$/;
const maps = new Map<string, SourceMap | null>();

function sourceMap(file: string): SourceMap | null {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
}

/** The stack's frames in HostOps' own files (`src/…`, `commands/…`), innermost first, as source paths. */
function ownFiles(stack: string): string[] {
  const files: string[] = [];
  for (const line of stack.split('\n').slice(1)) {
    const match = FRAME.exec(line.trim());
    if (!match?.[1]) continue;
    const file = match[1].startsWith('file:') ? fileURLToPath(match[1]) : match[1];
    const entry = sourceMap(file)?.findEntry(Number(match[2]) - 1, Number(match[3]) - 1);
    const source = entry && 'originalSource' in entry ? entry.originalSource : undefined;
    const own = source && /\/((?:src|commands)\/[^?]+\.ts)$/.exec(source.replace(/\\/g, '/'));
    if (!own?.[1] || own[1].includes('node_modules')) continue;
    if (files.at(-1) !== own[1]) files.push(own[1]);
  }
  return files;
}

let t: TestBot;
let apiOrigin = '';
let stacks: string[][] = [];
const listener = (message: unknown) => {
  const { request } = message as { request: { origin: string } };
  if (String(request.origin) === apiOrigin) stacks.push(ownFiles(new Error('request').stack ?? ''));
};
const savedLimit = Error.stackTraceLimit;

beforeAll(async () => {
  Error.stackTraceLimit = 100;
  subscribe('undici:request:create', listener);
  t = await startTestBot({ DATABASE_URL: tempDatabaseUrl() });
  apiOrigin = new URL(t.api.url).origin;
});
afterAll(async () => {
  unsubscribe('undici:request:create', listener);
  Error.stackTraceLimit = savedLimit;
  await t.stop();
});
beforeEach(() => {
  stacks = [];
});

describe('the path to the provider, in HostOps files', () => {
  it('a read: the router, the command, the hosting client (the Discord adapter before them: four)', async () => {
    const read = t.command({
      commandName: 'server',
      subcommand: 'logs',
      options: { id: 42 },
      roles: [ROLES.viewer],
    });
    await t.nth(read, 1);
    expect(stacks).toHaveLength(1);
    expect(stacks[0]).toEqual([
      'src/hosting/HostingClient.ts',
      'commands/server.ts',
      'src/discord/InteractionRouter.ts',
    ]);
  });

  it('Confirm: from the button to the call through three files, the command entered only to send', async () => {
    const prompt = await openPrompt(t, {
      commandName: 'server',
      subcommand: 'rdns',
      options: { id: 42, ip: '203.0.113.7', hostname: 'host.example.com' },
    });
    expect(stacks).toEqual([]);
    await confirmAndWait(t, prompt);
    expect(stacks).toHaveLength(1);
    const [path = []] = stacks;
    // Below the router's dispatch of the press: the Confirm handler, the command's send, the client.
    expect(path.slice(0, path.indexOf('src/discord/InteractionRouter.ts'))).toEqual([
      'src/hosting/HostingClient.ts',
      'commands/server.ts',
      'src/discord/changes/ChangeSender.ts',
    ]);
  });
});
