// Small, typed helpers for the end-to-end suite in test/e2e: reading what the bot sent to the fake Discord,
// driving confirmation prompts, and a few cross-cutting assertions.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { DispatchedInteraction, InteractionOptions, RecordedRequest } from './FakeDiscord.js';
import type { OperationName, Reply } from './FakeHostingApi.js';
import { hangLimit } from './hangLimit.js';
import { ROLES, type TestBot } from './startTestBot.js';

export type Json = Record<string, unknown>;

export const EPHEMERAL = 64;
export const CallbackType = {
  reply: 4,
  defer: 5,
  update: 7,
  modal: 9,
} as const;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function rec(value: unknown, what = 'value'): Json {
  if (!isRecord(value)) throw new Error(`${what} is not an object: ${JSON.stringify(value)}`);
  return value;
}

export function arr(value: unknown, what = 'value'): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not an array: ${JSON.stringify(value)}`);
  return value;
}

export function str(value: unknown, what = 'value'): string {
  if (typeof value !== 'string') throw new Error(`${what} is not a string: ${JSON.stringify(value)}`);
  return value;
}

/** Walks objects and arrays: `dig(body, 'data', 'components', 0)`; undefined when the path is missing. */
export function dig(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof key === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[key];
    } else {
      if (!isRecord(current)) return undefined;
      current = current[key];
    }
  }
  return current;
}

export function embedsOf(body: Json): Json[] {
  return Array.isArray(body.embeds) ? body.embeds.filter(isRecord) : [];
}

/** All the text a message shows: content, and every embed's title, description, fields and footer. */
export function textOf(body: Json): string {
  const parts: string[] = [];
  if (typeof body.content === 'string') parts.push(body.content);
  for (const embed of embedsOf(body)) {
    for (const key of ['title', 'description']) {
      const value = embed[key];
      if (typeof value === 'string') parts.push(value);
    }
    for (const field of Array.isArray(embed.fields) ? embed.fields.filter(isRecord) : []) {
      parts.push(`${String(field.name)}: ${String(field.value)}`);
    }
    const footer = dig(embed, 'footer', 'text');
    if (typeof footer === 'string') parts.push(footer);
    const author = dig(embed, 'author', 'name');
    if (typeof author === 'string') parts.push(author);
  }
  return parts.join('\n');
}

export function fieldValue(embed: Json, name: string): string {
  const fields = Array.isArray(embed.fields) ? embed.fields.filter(isRecord) : [];
  const field = fields.find((f) => f.name === name);
  if (field === undefined) {
    throw new Error(`no field "${name}" in ${JSON.stringify(fields.map((f) => f.name))}`);
  }
  return str(field.value, `field ${name}`);
}

export function isEphemeral(body: Json): boolean {
  return typeof body.flags === 'number' && (body.flags & EPHEMERAL) !== 0;
}

/**
 * The message body a Discord request carries, if any: `data` of an interaction callback that creates or
 * updates a message (types 4 and 7), or the body of a webhook/channel message create or edit.
 */
export function messageBody(r: RecordedRequest): Json | undefined {
  if (r.path.startsWith('/interactions/') && r.path.endsWith('/callback')) {
    const body = rec(r.body, 'callback body');
    return body.type === CallbackType.reply || body.type === CallbackType.update
      ? rec(body.data, 'callback data')
      : undefined;
  }
  const isWebhook = r.path.startsWith('/webhooks/');
  const isChannelMessage = /^\/channels\/\d+\/messages/.test(r.path);
  if ((isWebhook || isChannelMessage) && (r.method === 'POST' || r.method === 'PATCH')) {
    return isRecord(r.body) ? r.body : undefined;
  }
  return undefined;
}

/** Every message body the bot sent for these interactions (or, without any, in the whole run). */
export function messageBodies(t: TestBot, ...interactions: DispatchedInteraction[]): Json[] {
  const requests =
    interactions.length === 0 ? t.discord.requests : interactions.flatMap((i) => t.discord.requestsFor(i));
  return requests.map(messageBody).filter((b): b is Json => b !== undefined);
}

export interface Callback {
  type: number;
  data: Json;
  request: RecordedRequest;
}

/** The interaction callback (first request of an interaction). */
export async function callbackOf(
  t: TestBot,
  i: DispatchedInteraction,
  timeoutMs?: number,
): Promise<Callback> {
  const request = await t.nth(i, 0, timeoutMs);
  expect(request.method).toBe('POST');
  expect(request.path).toBe(`/interactions/${i.id}/${i.token}/callback`);
  const body = rec(request.body, 'callback body');
  return { type: Number(body.type), data: isRecord(body.data) ? body.data : {}, request };
}

/** Asserts the interaction was answered at once with an ephemeral message, and returns its text. */
export async function ephemeralReply(t: TestBot, i: DispatchedInteraction): Promise<string> {
  const cb = await callbackOf(t, i);
  expect(cb.type, `expected an immediate reply, got ${JSON.stringify(cb.request.body)}`).toBe(
    CallbackType.reply,
  );
  expect(isEphemeral(cb.data), 'reply must be ephemeral (flag 64)').toBe(true);
  return textOf(cb.data);
}

/**
 * For a read command: a deferral, then the answer as an edit of @original. Says nothing about who sees
 * it (/audit defers ephemerally); `publicAnswer` checks that everyone does.
 */
export async function deferredAnswer(
  t: TestBot,
  i: DispatchedInteraction,
  timeoutMs?: number,
): Promise<{ ack: RecordedRequest; edit: RecordedRequest; body: Json }> {
  const ack = await t.nth(i, 0, timeoutMs);
  expect(rec(ack.body).type).toBe(CallbackType.defer);
  const edit = await t.nth(i, 1, timeoutMs);
  expect(edit.method).toBe('PATCH');
  expect(edit.path).toBe(`/webhooks/${t.discord.applicationId}/${i.token}/messages/@original`);
  return { ack, edit, body: rec(edit.body) };
}

/**
 * A read command's answer, posted for the whole channel: the deferral carries no ephemeral flag, and the
 * message Discord shows (and the edit fills in) is not ephemeral. Errors of reads are public too.
 */
export async function publicAnswer(
  t: TestBot,
  i: DispatchedInteraction,
  timeoutMs?: number,
): Promise<{ ack: RecordedRequest; edit: RecordedRequest; body: Json }> {
  const answer = await deferredAnswer(t, i, timeoutMs);
  expect(dig(answer.ack.body, 'data', 'flags') ?? 0, 'the deferral of a read must not be ephemeral').toBe(0);
  expect(answer.ack.message?.ephemeral, 'the deferred message').toBe(false);
  expect(answer.edit.message?.ephemeral, 'the answer').toBe(false);
  expect(isEphemeral(answer.body)).toBe(false);
  return answer;
}

export interface Prompt {
  interaction: DispatchedInteraction;
  body: Json;
  embed: Json;
  messageId: string;
  confirmId: string;
  cancelId: string;
  ownerId: string;
  ownerRoles: string[];
  /** Where the prompt was shown; buttons are pressed there. */
  channelId: string;
}

/** Waits for the ephemeral confirmation prompt of an interaction (a command or a modal submit). */
export async function promptOf(
  t: TestBot,
  i: DispatchedInteraction,
  owner: { userId?: string; roles?: string[] } = {},
): Promise<Prompt> {
  const first = await callbackOf(t, i);
  // A prompt that looks something up first (the forward DNS check) is a deferral, then the edit.
  const cb =
    first.type === CallbackType.defer
      ? { ...first, data: { ...rec((await t.nth(i, 1)).body), flags: first.data.flags } }
      : first;
  expect(
    [CallbackType.reply, CallbackType.defer],
    `expected a prompt, got ${JSON.stringify(cb.request.body)}`,
  ).toContain(cb.type);
  expect(isEphemeral(cb.data), 'the prompt must be ephemeral').toBe(true);
  const buttons = arr(dig(cb.data, 'components', 0, 'components'), 'prompt buttons').map((b) => rec(b));
  const confirm = buttons.find((b) => b.label === 'Confirm');
  const cancel = buttons.find((b) => b.label === 'Cancel');
  if (!confirm || !cancel) throw new Error(`prompt without Confirm/Cancel: ${JSON.stringify(buttons)}`);
  const message = t.discord.originalMessage(i);
  if (!message) throw new Error('the fake knows no message behind the prompt');
  const [embed] = embedsOf(cb.data);
  return {
    interaction: i,
    body: cb.data,
    embed: embed ?? {},
    messageId: message.id,
    confirmId: str(confirm.custom_id),
    cancelId: str(cancel.custom_id),
    ownerId: owner.userId ?? t.discord.userId,
    ownerRoles: owner.roles ?? [ROLES.operator],
    channelId: str(dig(i.payload, 'channel_id'), 'channel_id'),
  };
}

/** Dispatches a command (operator unless roles say otherwise) and waits for its prompt. */
export async function openPrompt(t: TestBot, options: InteractionOptions): Promise<Prompt> {
  const roles = options.roles ?? [ROLES.operator];
  const i = t.command({ ...options, roles });
  return promptOf(t, i, { ...(options.userId === undefined ? {} : { userId: options.userId }), roles });
}

/** Presses a prompt's button, as its owner unless told otherwise. */
export function press(
  t: TestBot,
  prompt: Prompt,
  button: 'confirm' | 'cancel',
  as: { userId?: string; roles?: string[]; channelId?: string } = {},
): DispatchedInteraction {
  return t.discord.dispatchComponent({
    customId: button === 'confirm' ? prompt.confirmId : prompt.cancelId,
    message: { id: prompt.messageId },
    userId: as.userId ?? prompt.ownerId,
    roles: as.roles ?? prompt.ownerRoles,
    channelId: as.channelId ?? prompt.channelId,
  });
}

export interface Confirmed {
  click: DispatchedInteraction;
  /** The follow-up request that posted the public record (its `message` names the message). */
  followUp: RecordedRequest;
  /** The type 7 update of the prompt ("Sending…"). */
  update: Json;
  /** The edit of the (ephemeral) prompt with the outcome, seen only by the invoker. */
  privateEdit: Json;
  /** The follow-up posted in the channel. */
  publicRecord: Json;
}

/** Presses Confirm and waits for the three answers a successful change produces. */
export async function confirmAndWait(t: TestBot, prompt: Prompt): Promise<Confirmed> {
  const click = press(t, prompt, 'confirm');
  const cb = await callbackOf(t, click);
  expect(cb.type, `expected the prompt to be updated, got ${JSON.stringify(cb.request.body)}`).toBe(
    CallbackType.update,
  );
  const edit = await t.nth(click, 1);
  expect(edit.method).toBe('PATCH');
  expect(edit.path).toBe(`/webhooks/${t.discord.applicationId}/${click.token}/messages/@original`);
  const follow = await t.nth(click, 2);
  expect(follow.method).toBe('POST');
  expect(follow.path).toBe(`/webhooks/${t.discord.applicationId}/${click.token}`);
  return {
    click,
    followUp: follow,
    update: cb.data,
    privateEdit: rec(edit.body),
    publicRecord: rec(follow.body),
  };
}

/**
 * A fixed pause. Prefer `idle`: waiting a while proves nothing on a loaded machine, where a late API
 * call can slip past the pause, or into the next test.
 */
export function settle(ms = 150): Promise<void> {
  return sleep(ms);
}

/**
 * Everything the bot started has finished: its interactions (through their last answer and audit
 * entry), timers that fired and read-backs. Call it after the answer to an interaction has arrived (so
 * the bot has certainly started on it); after it, whatever the bot was going to do has been done, so
 * "no API call" and "nothing more sent" can be checked without waiting a while.
 */
export function idle(t: TestBot, timeoutMs = 10_000): Promise<void> {
  return waitUntil(() => t.bot.router.inFlight === 0, 'the bot to finish its work', timeoutMs);
}

/** Every message body the bot sent where everyone in the channel sees it (not ephemeral). */
export function publicBodies(t: TestBot): Json[] {
  return t.discord.requests
    .filter((r) => r.message !== undefined && !r.message.ephemeral)
    .map(messageBody)
    .filter((b): b is Json => b !== undefined);
}

export async function waitUntil(
  condition: () => boolean,
  what: string,
  askedMs = 10_000,
  stepMs = 5,
): Promise<void> {
  const timeoutMs = hangLimit(askedMs);
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(stepMs);
  }
}

/** The query the hosting API received, as a plain object (exact keys and values). */
export function queryOf(t: TestBot, operation: OperationName): Record<string, string>[] {
  return t.api.requestsFor(operation).map((r) => Object.fromEntries(r.query));
}

/**
 * Replaces an operation's responder with one that holds each request for `holdMs` and records how many
 * were in flight at once.
 */
export function trackConcurrency(
  t: TestBot,
  operation: OperationName,
  holdMs: number,
  reply: (param: string) => Reply,
): { readonly max: number; readonly current: number } {
  const state = { max: 0, current: 0 };
  t.api.respond(operation, async (request) => {
    state.current += 1;
    state.max = Math.max(state.max, state.current);
    await sleep(holdMs);
    state.current -= 1;
    return reply(request.param ?? '');
  });
  return state;
}

/** Strips inline code and code blocks: mentions and markdown inside them render literally. */
export function outsideCode(text: string): string {
  return text.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');
}

/** Neither the hosting token nor the Discord token may appear in a log line or anything sent to Discord. */
export function expectNoTokensLeaked(t: TestBot): void {
  const discordBodies = t.discord.requests.map((r) => JSON.stringify(r.body ?? '')).join('\n');
  for (const [name, secret] of [
    ['hosting token', t.api.token],
    ['discord token', t.discord.token],
  ] as const) {
    expect(t.logs.text.includes(secret), `${name} found in the logs`).toBe(false);
    expect(discordBodies.includes(secret), `${name} found in a Discord request body`).toBe(false);
  }
}
