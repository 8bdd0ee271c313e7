// A change made in the console says in Discord who made it: `console:<name>`, as the audit trail shows it,
// never a mention of the console's made-up user id (which Discord renders as an unknown user). A console
// process sends a DNS set; the bot on the same store (each engine) shows it in /domain records and in the
// difference of the next /domain dns prompt.
import { mkdtempSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { consoleActor } from '../../src/text/consoleActor.js';
import { runConsoleProcess } from '../support/consoleProcess.js';
import { embedsOf, fieldValue, openPrompt, publicAnswer, textOf } from '../support/e2eHelpers.js';
import { FakeHostingApi } from '../support/FakeHostingApi.js';
import { createDatabase } from '../support/startPostgres.js';
import { ROLES, startTestBot, type TestBot, tempDatabaseUrl } from '../support/startTestBot.js';

const engines = [
  { engine: 'sqlite', freshUrl: async () => tempDatabaseUrl() },
  { engine: 'postgres', freshUrl: () => createDatabase(inject('postgresUrl'), 'console_actor') },
] as const;

const actor = consoleActor(userInfo().username);
const COMPARED = 'Compared with the last set sent through HostOps';

let api: FakeHostingApi;
beforeAll(async () => {
  api = await FakeHostingApi.start();
});
afterAll(async () => {
  await api?.stop();
});

describe.each(engines)('a DNS set sent from the console, in Discord ($engine)', ({ freshUrl }) => {
  let t: TestBot | undefined;
  afterAll(async () => {
    await t?.stop();
  });

  it('/domain records and the next prompt name `console:<name>`, not a mention of its made-up id', async () => {
    const databaseUrl = await freshUrl();
    const before = api.requestsFor('submitDnsRecords').length;
    // The console first: on SQLite it and the bot take turns.
    const sent = await runConsoleProcess(
      ['--as', 'operator', '--yes', '/domain dns actor.example records:"www 3600 A 203.0.113.7"'],
      {
        cwd: mkdtempSync(join(tmpdir(), 'hostops-console-actor-')),
        env: { HOSTING_API_URL: api.url, HOSTING_API_TOKEN: api.token, DATABASE_URL: databaseUrl },
      },
    );
    expect(sent.code, sent.stderr).toBe(0);
    // The console's own public record names it the same way.
    expect(sent.stdout).toContain(`📝 ${actor.name} submitted 1 record for \`actor.example\`.`);
    expect(api.requestsFor('submitDnsRecords')).toHaveLength(before + 1);

    const bot = await startTestBot({ DATABASE_URL: databaseUrl }, { api });
    t = bot;
    const records = bot.command({
      commandName: 'domain',
      subcommand: 'records',
      options: { domain: 'actor.example' },
      roles: [ROLES.viewer],
    });
    const shown = textOf((await publicAnswer(bot, records)).body);
    expect(shown).toContain(`by ${actor.name} (done)`);
    expect(shown).not.toContain('<@');

    const prompt = await openPrompt(bot, {
      commandName: 'domain',
      subcommand: 'dns',
      options: { domain: 'actor.example', records: 'www 3600 A 203.0.113.8' },
    });
    const compared = fieldValue(prompt.embed, COMPARED);
    expect(compared).toContain(`The set ${actor.name} sent`);
    expect(compared).not.toContain('<@');
    expect(JSON.stringify(embedsOf(prompt.body))).not.toContain(actor.id);
  });
});
