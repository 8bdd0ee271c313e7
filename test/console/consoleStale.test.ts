// The console's Confirm checks what its prompt was made against, as Discord's does (issue 33, point 1): a
// console session and a bot on one PostgreSQL store; the bot sends a set for the domain between the
// console's prompt and its `confirm`, so nothing is sent and the console prints the new prompt, whose
// `confirm` then sends.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { builtEntryArgs } from '../support/built.js';
import { confirmAndWait, idle, openPrompt, queryOf, waitUntil } from '../support/e2eHelpers.js';
import { createDatabase } from '../support/startPostgres.js';
import { startTestBot, type TestBot } from '../support/startTestBot.js';

const DOMAIN = 'console-stale.example';
const ALICE = '900000000000000051';

let t: TestBot;
let databaseUrl = '';
beforeAll(async () => {
  databaseUrl = await createDatabase(inject('postgresUrl'), 'console_stale');
  t = await startTestBot({ DATABASE_URL: databaseUrl });
}, 120_000);
afterAll(() => t?.stop());

const sent = () => queryOf(t, 'submitDnsRecords').filter((query) => query.domain === DOMAIN);

/** An interactive console whose stdin the test writes line by line, waiting for what each line prints. */
function startConsole(): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const child = spawn(process.execPath, [...builtEntryArgs('src/console.ts'), '--as', 'operator'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent',
      LANG: 'C',
      NO_COLOR: '1',
      HOSTING_API_URL: t.api.url,
      RDAP_CHECK: 'off',
      HOSTING_API_TOKEN: t.api.token,
      DATABASE_URL: databaseUrl,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    output += String(chunk);
  });
  return { child, output: () => output };
}

it('a console Confirm after another set was sent prints a new prompt against it and sends nothing; its confirm sends', async () => {
  const { child, output } = startConsole();
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    const after = async (line: string, shows: RegExp) => {
      const from = output().length;
      child.stdin.write(`${line}\n`);
      await waitUntil(() => shows.test(output().slice(from)), `the console to answer ${line}`, 20_000);
      return output().slice(from);
    };
    await after(`/domain dns ${DOMAIN}`, /one per line/i);
    child.stdin.write('www 3600 A 203.0.113.9\n');
    const prompt = await after('', /No earlier set was sent through HostOps/);
    expect(prompt).toContain('www 3600 A 203.0.113.9');

    // Meanwhile, in Discord, Alice sends a set for the domain.
    await confirmAndWait(
      t,
      await openPrompt(t, {
        commandName: 'domain',
        subcommand: 'dns',
        options: { domain: DOMAIN, records: 'www 3600 A 203.0.113.7\nalice 3600 A 198.51.100.10' },
        userId: ALICE,
      }),
    );
    await idle(t);
    expect(sent()).toHaveLength(1);

    const renewed = await after('confirm', /Nothing is sent until you type `confirm`/);
    expect(renewed).toContain('Not sent:');
    expect(renewed).toContain('it would remove 1 record: `alice 3600 A 198.51.100.10`');
    expect(renewed).toContain('- alice 3600 A 198.51.100.10');
    expect(sent()).toHaveLength(1);

    await after('confirm', /DNS records submitted/);
    await waitUntil(() => sent().length === 2, 'the console’s set to be sent');
    expect(JSON.parse(sent()[1]?.records ?? '')).toEqual([
      { name: 'www', type: 'A', content: '203.0.113.9', ttl: 3600 },
    ]);
    child.stdin.end('exit\n');
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGTERM');
  }
}, 120_000);
