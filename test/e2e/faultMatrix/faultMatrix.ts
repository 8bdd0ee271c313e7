// The fault matrix of issue 43, for one engine: every step of a change's life × a store fault, each case
// on a domain of its own so that every case of a fault class runs at once in one bot (one process per
// engine per class). After each: a truthful final state, at most one request at the provider, exactly
// one audit row and one audit-channel line, the domain's slot free (the next change to it is sent). The
// rows it produces are the table of docs/reliability.md (renderMatrix; checked there by reliabilityDoc).
import { performance } from 'node:perf_hooks';
import { expect } from 'vitest';
import { LEASE_MS } from '../../../src/store/index.js';
import {
  arr,
  CallbackType,
  callbackOf,
  dig,
  idle,
  openPrompt,
  type Prompt,
  press,
  rec,
  str,
  textOf,
  waitUntil,
} from '../../support/e2eHelpers.js';
import type { DispatchedInteraction } from '../../support/FakeDiscord.js';
import { type Fault, FaultPlan, faultyStore } from '../../support/FaultyStore.js';
import { ROLES, startTestBot, type TestBot } from '../../support/startTestBot.js';
import {
  type Case,
  type FaultClass,
  type MatrixRow,
  STEPS,
  type Step,
  TERMINAL,
  touches,
} from './faultCases.js';

export const AUDIT_CHANNEL = '500000000000000043';
const APPROVER = '900000000000000043';
/** The sweep's period (ChangeSweeper): a case ends within the lease and one sweep. */
const SWEEP_MS = 10_000;
const RECORDS = 'www 3600 A 203.0.113.7';

/** The fault of a case: one error at its step, or the store unreachable (for it) from its step on. */
function faultOf(c: Case, domain: string, faultClass: FaultClass): Omit<Fault, 'hits'> {
  const base = { call: c.call, when: c.when(domain), at: c.at ?? 'before' };
  if (faultClass === 'one store error') return { ...base, times: 1 };
  return { ...base, outage: { ms: OUTAGE_MS, touches: touches(domain) } };
}

/** Longer than the lease. */
export const OUTAGE_MS = LEASE_MS + 1_000;

export interface MatrixBot {
  t: TestBot;
  plan: FaultPlan;
}

/** `env`: what the bot of some cases needs besides (the expiry cases' short prompts). */
export async function startMatrixBot(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<MatrixBot> {
  const plan = new FaultPlan();
  const t = await startTestBot(
    {
      DATABASE_URL: databaseUrl,
      AUDIT_CHANNEL_ID: AUDIT_CHANNEL,
      APPROVAL_REQUIRED: 'domain register',
      ...env,
    },
    {},
    { wrapStore: (store) => faultyStore(store, plan) },
  );
  t.discord.addChannel({ id: AUDIT_CHANNEL });
  // Each case's provider answer, by the domain it sends.
  t.api.respond(
    'submitDnsRecords',
    (request) => replies.get(request.query.get('domain') ?? '') ?? { body: {} },
  );
  return { t, plan };
}

const replies = new Map<string, { status?: number; body?: unknown; destroy?: boolean }>();

function sentTo(t: TestBot, domain: string): number {
  return t.api.requests.filter(
    (r) =>
      (r.operation === 'submitDnsRecords' && r.query.get('domain') === domain) ||
      (r.operation === 'createDomain' &&
        (r.query.get('domain') === domain || JSON.stringify(r.query).includes(domain))),
  ).length;
}

const dns = (domain: string) => ({
  commandName: 'domain',
  subcommand: 'dns',
  options: { domain, records: RECORDS },
});
const register = (domain: string) => ({
  commandName: 'domain',
  subcommand: 'register',
  options: { domain, ns1: 'ns1.example.net', ns2: 'ns2.example.net' },
  roles: [ROLES.admin],
});

function changeIdOf(customId: string): string {
  return customId.split(':')[2] ?? '';
}

async function answerText(t: TestBot, i: DispatchedInteraction): Promise<{ type: number; text: string }> {
  const cb = await callbackOf(t, i);
  return { type: cb.type, text: textOf(cb.data) };
}

const TRY_AGAIN = /could not reach its store|could not be reached to record this press/;

/** Confirms (and, for a register, approves) a change; presses again once when the store could not decide. */
async function carryOut(t: TestBot, c: Case, prompt: Prompt, faults: readonly Fault[]): Promise<void> {
  const pressAgain = async (pressIt: () => DispatchedInteraction) => {
    const first = await answerText(t, pressIt());
    if (!c.pressAgain) return;
    expect(first.type, first.text).toBe(CallbackType.reply);
    expect(first.text).toMatch(TRY_AGAIN);
    await waitUntil(
      () => faults.every((f) => f.untilMs === undefined || performance.now() >= f.untilMs),
      'the store back',
      OUTAGE_MS * 3,
    );
    expect((await callbackOf(t, pressIt())).type).toBe(CallbackType.update);
  };
  if (!c.register) {
    await pressAgain(() => press(t, prompt, 'confirm'));
    return;
  }
  expect((await callbackOf(t, press(t, prompt, 'confirm'))).type).toBe(CallbackType.update);
  const id = changeIdOf(prompt.confirmId);
  const request = () =>
    t.discord
      .channelMessages()
      .find(
        (m) =>
          /^Approval needed/.test(m.embeds[0]?.title ?? '') &&
          JSON.stringify(m.components ?? []).includes(`:${id}`),
      );
  await waitUntil(() => request() !== undefined, 'the approval request');
  const found = request();
  if (!found) throw new Error('no approval request');
  const approveId = str(
    arr(dig(found, 'components', 0, 'components'))
      .map((b) => rec(b))
      .find((b) => b.label === 'Approve')?.custom_id,
  );
  await pressAgain(() =>
    t.discord.dispatchComponent({
      customId: approveId,
      message: { id: found.id },
      userId: APPROVER,
      roles: [ROLES.admin],
    }),
  );
}

async function endOf(t: TestBot, id: string, what: string, timeoutMs: number): Promise<string> {
  let state = '';
  await waitUntil(
    () => {
      void t.bot.store.changes.get(id).then(
        (r) => {
          state = r?.state ?? '';
        },
        () => {},
      );
      return TERMINAL.has(state);
    },
    what,
    timeoutMs,
    50,
  );
  return state;
}

/** Runs one case to its end and checks it; returns its row. */
export async function runCase(
  bot: MatrixBot,
  c: Case,
  faultClass: FaultClass,
  engine: 'sqlite' | 'postgres',
  domain: string,
): Promise<MatrixRow> {
  const { t, plan } = bot;
  if (c.reply === 'refused') replies.set(domain, { status: 400, body: { error: 'invalid record' } });
  if (c.reply === 'dropped') replies.set(domain, { destroy: true });
  const faults: Fault[] = [];
  const arm = () => faults.push(plan.add(faultOf(c, domain, faultClass)));
  const command = c.register ? register(domain) : dns(domain);
  let changeId: string | undefined;
  if (!c.afterPrompt) arm();
  if (c.step === 'prompt stored') {
    const i = t.command(command);
    await callbackOf(t, i);
    await waitUntil(
      () => plan.over() || faults.every((f) => f.hits > 0 && (f.untilMs ?? 0) <= performance.now()),
      'the store back',
      OUTAGE_MS * 3,
    );
    await idle(t, 60_000);
  } else {
    const prompt = await openPrompt(t, command);
    changeId = changeIdOf(prompt.confirmId);
    if (c.afterPrompt) arm();
    // Left to run out: its own timer (or, after a fault, the sweep) expires it.
    if (!c.expires) await carryOut(t, c, prompt, faults);
  }
  let ended = 'none';
  if (changeId !== undefined) {
    const id = changeId;
    // Within the lease and one sweep of the fault's end (on a loaded machine: twice that).
    ended = await endOf(t, id, `${c.step}: the change to end`, 2 * (OUTAGE_MS + LEASE_MS + SWEEP_MS));
    await waitUntil(() => t.bot.router.inFlight === 0, 'the bot idle', 60_000);
    // The checks below read through the same faulty store: a fault at a step after the end (the line's
    // take) may have started its outage after the end was seen, and would fail the reads, not the bot.
    await waitUntil(
      () => faults.every((f) => f.untilMs === undefined || performance.now() >= f.untilMs),
      `${c.step}: the store back`,
      OUTAGE_MS * 3,
    );
    // Exactly one audit row of the change's end, and one line in the audit channel, naming the same end.
    const record = await t.bot.store.changes.get(id);
    const rows = (await t.bot.store.audit.query({}, { limit: 1000, offset: 0 })).rows.filter(
      (row) => row.changeId === id && TERMINAL.has(row.outcome),
    );
    expect(
      rows.map((row) => row.outcome),
      `${c.step}: audit rows ${JSON.stringify(rows.map((row) => [row.outcome, row.detail, row.actedById]))} ${t.logs.lines
        .filter((l) => l.includes(id) && /"level":[45]0/.test(l))
        .join('\n')
        .slice(0, 3000)}`,
    ).toEqual([ended]);
    const lines = () =>
      t.discord
        .channelMessages(AUDIT_CHANNEL)
        .filter((m) => record !== undefined && m.content.includes(record.correlationId));
    // Posted by the settling replica, or (its take failed) by a sweep once due: a lease and one sweep.
    await waitUntil(() => lines().length > 0, `${c.step}: the audit line`, 2 * (LEASE_MS + SWEEP_MS));
    expect(
      lines().map((m) => m.content.includes(`**${ended}**`)),
      `${c.step}: audit lines`,
    ).toEqual([true]);
    // Never `failed` for one that may have been sent: a failure without a request says it was not sent.
    if (ended === 'failed' && c.sent === 0) expect(record?.result).toMatchObject({ sent: false });
  } else {
    const kept = await t.bot.store.changes.listByState([
      ...TERMINAL,
      'pending',
      'sending',
      'awaiting_approval',
    ] as never);
    expect(
      kept.filter((r) => r.target === domain),
      `${c.step}: no record`,
    ).toEqual([]);
  }
  // The expiry was struck where the case says (nobody pressed anything that could stand in for it).
  if (c.expires)
    expect(
      faults.map((f) => f.hits > 0),
      `${c.step}: the fault struck`,
    ).toEqual([true]);
  const sent = sentTo(t, domain);
  expect(sent, `${c.step}: requests at the provider`).toBeLessThanOrEqual(1);
  expect({ ended, sent }, c.step).toEqual({ ended: c.ended, sent: c.sent });
  // The slot is free: the next change to the domain (no fault, the provider answering) is sent.
  replies.delete(domain);
  const next = await openPrompt(t, command);
  await carryOut(t, { ...c, pressAgain: undefined } as unknown as Case, next, []);
  const nextState = await endOf(t, changeIdOf(next.confirmId), `${c.step}: the next change`, 30_000);
  expect(nextState, `${c.step}: the next change`).toBe('done');
  return { step: c.step, fault: faultClass, engine, ended, sent, next: nextState };
}

/** The rows as the markdown table of docs/reliability.md: steps down, fault classes across. */
export function renderMatrix(rows: readonly MatrixRow[], engine: string): string {
  const classes: FaultClass[] = ['one store error', 'store unreachable > lease'];
  const cell = (step: Step, fault: FaultClass) => {
    const row = rows.find((r) => r.step === step && r.fault === fault);
    if (!row) return 'not run';
    const ended = row.ended === 'none' ? 'no record' : `\`${row.ended}\``;
    return `${ended}, sent ${row.sent}, next \`${row.next}\``;
  };
  return [
    `| step (${engine}) | ${classes.join(' | ')} |`,
    `| --- | ${classes.map(() => '---').join(' | ')} |`,
    ...STEPS.map((step) => `| ${step} | ${classes.map((f) => cell(step, f)).join(' | ')} |`),
  ].join('\n');
}
