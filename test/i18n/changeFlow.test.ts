import type { APIEmbed } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessGate } from '../../src/access/AccessGate.js';
import { GrantCache } from '../../src/access/GrantCache.js';
import { ApprovalPolicy } from '../../src/changes/ApprovalPolicy.js';
import { ChangeJournal } from '../../src/changes/ChangeJournal.js';
import { recordedPreview } from '../../src/changes/recordedPreview.js';
import { SecretSeal } from '../../src/changes/SecretSeal.js';
import type { Config } from '../../src/config.js';
import type { Answers, Invocation } from '../../src/discord/Answers.js';
import { change } from '../../src/discord/ChangeSpec.js';
import type { AnyChangeSpec, SendContext } from '../../src/discord/CommandModule.js';
import { ChangeFlow } from '../../src/discord/changes/ChangeFlow.js';
import { closedMessage, decidedMessage, promptButtons } from '../../src/discord/changes/renderChange.js';
import type { HostingClient } from '../../src/hosting/HostingClient.js';
import type { Locale } from '../../src/i18n/locales.js';
import { figure, translator } from '../../src/i18n/Translator.js';
import type { BotMessages, MessageBody } from '../../src/replies/ReplyBody.js';
import { sandboxZone } from '../../src/sandbox/sandboxZone.js';
import type { ChangeRecord, Store } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';
import { captureLogs } from '../support/captureLogs.js';

const de = translator('de');
const en = translator('en');

describe('the confirmation flow’s words', () => {
  it('keeps the English of every closed prompt and decided request', () => {
    expect(closedMessage({ state: 'done' }, en)).toBe(
      'This confirmation is no longer open: the change was already confirmed.',
    );
    expect(closedMessage({ state: 'expired' }, en)).toBe(
      'This confirmation is no longer open: it expired; nothing was sent. Run the command again.',
    );
    expect(decidedMessage({ state: 'cancelled' }, en)).toBe(
      'This change was rejected or withdrawn; nothing was sent.',
    );
    expect(decidedMessage({ state: 'done' }, en)).toBe('This change was already approved.');
  });

  it('says them in German', () => {
    expect(closedMessage({ state: 'cancelled' }, de)).toBe(
      'Diese Bestätigung ist nicht mehr offen: Sie wurde abgebrochen; es wurde nichts gesendet.',
    );
    expect(closedMessage({ state: 'awaiting_approval' }, de)).toContain('wartet auf Freigabe');
    expect(decidedMessage({ state: 'expired' }, de)).toBe(
      'Diese Freigabeanfrage ist abgelaufen; es wurde nichts gesendet.',
    );
    expect(decidedMessage({ state: 'sending' }, de)).toBe('Diese Änderung wurde bereits freigegeben.');
    const labels = promptButtons('x', true, de).components.map((button) =>
      'label' in button ? button.label : '',
    );
    expect(labels).toEqual(['Bestätigen', 'Abbrechen']);
  });

  it('counts read-backs with the plural and the number format of the language', () => {
    const reference = en('errors.reference', { id: 'abc' });
    expect(en('changes.read_back.still_unknown', { count: 4, reference })).toBe(
      '**Outcome still unknown** after 4 checks. Check before trying again; `/audit outcome:unknown` lists it. Reference: `abc`.',
    );
    expect(en('changes.read_back.still_unknown', { count: 1, reference })).toContain('after 1 check.');
    expect(de('changes.read_back.still_unknown', { count: 1, reference })).toContain('nach 1 Prüfung.');
    expect(de('changes.read_back.still_unknown', { count: 1500, reference })).toContain(
      'nach 1.500 Prüfungen.',
    );
    expect(de('changes.outcome.no_answer', { seconds: figure(0.3) })).toBe(
      'keine Antwort vom Provider innerhalb von 0,3 s',
    );
  });
});

/** What the flow asked of the change below, in order. */
let asked: string[] = [];

/** A change whose preview and outcome are written with the translators it is given. */
const spec = change<{ name: string }>({
  tier: 'operator',
  operation: 'setReverseDns',
  parse: () => ({ name: 'x' }),
  target: ({ name }) => {
    asked.push('target');
    return name;
  },
  preview: ({ name }, t) => {
    asked.push(`preview ${t.locale}`);
    return {
      title: t.locale === 'de' ? 'Reverse-DNS setzen' : 'Set reverse DNS',
      fields: [{ name: t.locale === 'de' ? 'Hostname' : 'Hostname', value: name }],
    };
  },
  send: async ({ name }, context: SendContext) => {
    asked.push('send');
    contexts.push(context);
    return {
      private: { content: `${context.t.locale}: ${name} private` },
      public: { content: `${context.channelT.locale}: ${name} public` },
    };
  },
}) as unknown as AnyChangeSpec;

let contexts: SendContext[] = [];

interface Sent {
  kind: 'reply' | 'update' | 'editReply' | 'followUp' | 'showModal';
  body: MessageBody & { content?: string; flags?: number; title?: string };
}

/** A button (or slash command) interaction: enough of discord.js for the flow and its gates. */
function fakeInteraction(userId: string, locale: string, sent: Sent[]) {
  const record =
    (kind: Sent['kind']) =>
    async (body: Sent['body']): Promise<void> => {
      sent.push({ kind, body });
    };
  return {
    locale,
    user: { id: userId, username: `user${userId}` },
    channelId: 'ops',
    guildId: 'guild',
    member: { roles: ['operator-role'] },
    authorizingIntegrationOwners: { guildId: 'guild' },
    inGuild: () => true,
    isButton: () => true,
    deferred: false,
    replied: false,
    ephemeral: null,
    reply: record('reply'),
    update: record('update'),
    editReply: record('editReply'),
    followUp: record('followUp'),
    showModal: record('showModal'),
    // biome-ignore lint/suspicious/noExplicitAny: a stand-in for discord.js's interaction classes.
  } as any;
}

function embedOf(sent: Sent | undefined): APIEmbed {
  const embed = sent?.body.embeds?.[0];
  if (!embed) throw new Error('no embed');
  return embed;
}

describe('ChangeFlow in German', () => {
  let store: Store;
  let flow: ChangeFlow;
  let posted: { channelId: string; body: MessageBody }[];
  const logs = captureLogs();

  async function start(botLocale: Locale, approval: string[] = []) {
    const config = {
      botLocale,
      access: { adminRoleIds: [], operatorRoleIds: ['operator-role'], viewerRoleIds: [], channelIds: [] },
      approval: { required: approval, channelId: 'approvals', timeoutMs: 3_600_000 },
      hosting: { sandbox: false },
    } as unknown as Config;
    const now = () => new Date();
    const journal = new ChangeJournal(store, now, 15 * 60_000, 'replica', new SecretSeal('test-token'));
    const answers = {
      acknowledge: async (_invocation: Invocation, response: Promise<unknown>) => {
        await response;
      },
      safely: async (_invocation: Invocation, send: () => Promise<unknown>) => {
        await send();
        return true;
      },
      finish: async () => {},
      // The audit row the journal writes with a change's end (the real store's transaction).
      ending: (invocation: Invocation, outcome: string, detail: string | null) => ({
        entry: {
          at: new Date(),
          userId: invocation.userId,
          userName: invocation.userName,
          guildId: null,
          channelId: null,
          command: 'domain',
          subcommand: 'dns',
          target: invocation.target ?? null,
          outcome,
          detail,
          correlationId: invocation.correlationId,
          durationMs: null,
          parameters: null,
          changeId: invocation.changeId ?? null,
        },
        posts: [],
      }),
      announceDue: async () => {},
      data: () => {},
      fail: async (_i: unknown, _invocation: Invocation, error: unknown) => {
        throw error;
      },
      log: () => {},
    } as unknown as Answers;
    const messages: BotMessages = {
      post: async (channelId, body) => {
        posted.push({ channelId, body });
        return 'message-1';
      },
      edit: async (channelId, _id, body) => {
        posted.push({ channelId, body });
      },
    };
    flow = new ChangeFlow(
      {
        journal,
        approvals: new ApprovalPolicy(store, config.approval.required),
        approvalsHere: true,
        store,
        specs: new Map([['/server rdns', spec]]),
        answers,
        hosting: {} as HostingClient,
        config,
        resolver: sandboxZone(),
        gate: new AccessGate(new GrantCache(store, config.access), config.access, now),
        logger: logs.logger,
        secrets: logs.secrets,
        generatePassword: () => 'password',
        now,
        liveReplicas: async () => ['replica'],
        messages,
        settlesOthers: true,
      },
      () => {},
    );
    return journal;
  }

  function invocation(locale: Locale): Invocation {
    return {
      label: '/server rdns',
      correlationId: 'cid-1',
      userId: 'requester',
      userName: 'requester',
      guildId: 'guild',
      channelId: 'ops',
      startedAt: performance.now(),
      locale,
      logger: logs.logger,
      changing: true,
    };
  }

  async function prompt(locale: Locale, sent: Sent[]): Promise<ChangeRecord> {
    const made = spec.again(
      { name: 'host.example.com' },
      { config: {} as Config, resolver: sandboxZone(), store, logger: logs.logger, t: translator(locale) },
    );
    await flow.prompt(fakeInteraction('requester', locale, sent), invocation(locale), spec, made);
    const confirm = sent[0]?.body.components?.[0]?.components[0];
    const id = confirm && 'custom_id' in confirm ? confirm.custom_id.split(':')[2] : undefined;
    const record = id === undefined ? undefined : await store.changes.get(id);
    if (!record) throw new Error('no record');
    return record;
  }

  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
    posted = [];
    contexts = [];
    asked = [];
  });

  afterEach(async () => {
    flow.startDraining();
    await store.close();
  });

  it('prompts a German invoker in German and stores their language', async () => {
    await start('en');
    const sent: Sent[] = [];
    const record = await prompt('de', sent);
    expect(record.locale).toBe('de');
    // The record keeps its preview in every language: the channel's approval request needs no command.
    expect(recordedPreview(record.preview, 'de').title).toBe('Reverse-DNS setzen');
    expect(recordedPreview(record.preview, 'en').title).toBe('Set reverse DNS');
    const embed = embedOf(sent[0]);
    expect(embed.title).toBe('Reverse-DNS setzen');
    expect(embed.description).toMatch(
      /^Es wird nichts gesendet, bis du \*\*Bestätigen\*\* drückst\. Diese Abfrage läuft <t:\d+:R> ab\.$/,
    );
    const labels = sent[0]?.body.components?.[0]?.components.map((b) => ('label' in b ? b.label : ''));
    expect(labels).toEqual(['Bestätigen', 'Abbrechen']);
  });

  it('keeps the English prompt for an English invoker', async () => {
    await start('de');
    const sent: Sent[] = [];
    await prompt('en', sent);
    expect(embedOf(sent[0]).description).toMatch(
      /^Nothing is sent until you press \*\*Confirm\*\*\. This prompt expires <t:\d+:R>\.$/,
    );
  });

  it('cancels in the invoker’s language', async () => {
    await start('en');
    const sent: Sent[] = [];
    const record = await prompt('de', sent);
    await flow.buttons.cancel(fakeInteraction('requester', 'de', sent), record.id);
    expect(embedOf(sent.at(-1)).description).toBe('Abgebrochen — es wurde nichts gesendet.');
    // Another member is told it is not theirs; the requester, that it is closed — each in German.
    const other: Sent[] = [];
    await flow.buttons.cancel(fakeInteraction('someone', 'de', other), record.id);
    expect(other[0]?.body.content).toBe('Nur <@requester> kann diese Änderung abbrechen.');
    const again: Sent[] = [];
    await flow.buttons.cancel(fakeInteraction('requester', 'de', again), record.id);
    expect(again[0]?.body.content).toBe(
      'Diese Bestätigung ist nicht mehr offen: Sie wurde abgebrochen; es wurde nichts gesendet.',
    );
  });

  it('answers the invoker privately in German and the channel in BOT_LOCALE', async () => {
    await start('en');
    const sent: Sent[] = [];
    const record = await prompt('de', sent);
    await flow.buttons.confirm(fakeInteraction('requester', 'de', sent), record.id);
    expect(embedOf(sent.find((s) => s.kind === 'update')).description).toBe('Wird gesendet…');
    expect(contexts[0]?.t.locale).toBe('de');
    expect(contexts[0]?.channelT.locale).toBe('en');
    expect(sent.find((s) => s.kind === 'editReply')?.body.content).toBe('de: host.example.com private');
    expect(sent.find((s) => s.kind === 'followUp')?.body.content).toBe('en: host.example.com public');
  });

  it('turns away a German click while restarting', async () => {
    await start('en');
    const sent: Sent[] = [];
    const record = await prompt('en', sent);
    flow.startDraining();
    const click: Sent[] = [];
    await flow.buttons.confirm(fakeInteraction('requester', 'de', click), record.id);
    expect(click[0]?.body.content).toBe(
      'Nicht gesendet: HostOps startet gerade neu; versuch es in einer Minute noch einmal.',
    );
  });

  it('posts the approval request in BOT_LOCALE and tells the requester in theirs', async () => {
    await start('de', ['/server rdns']);
    const sent: Sent[] = [];
    const record = await prompt('en', sent);
    // Made once, in the invoker's language and (for the record) in every language; never again after.
    expect(asked.sort()).toEqual(['preview de', 'preview en', 'target']);
    asked = [];
    await flow.buttons.confirm(fakeInteraction('requester', 'en-US', sent), record.id);
    expect(embedOf(sent.find((s) => s.kind === 'update')).description).toBe('Posting the approval request…');
    expect(embedOf(sent.find((s) => s.kind === 'editReply')).description).toMatch(
      /^\*\*Approval pending\*\*/,
    );
    const request = embedOf({ kind: 'reply', body: posted[0]?.body ?? {} });
    expect(request.title).toBe('Freigabe nötig: Reverse-DNS setzen');
    expect(request.footer?.text).toBe('Referenz cid-1');
    expect(request.description).toMatch(
      /^Beantragt von <@requester> \(requester\)\. Jedes Mitglied mit der Stufe \*\*operator\*\*/,
    );
    const labels = posted[0]?.body.components?.[0]?.components.map((b) => ('label' in b ? b.label : ''));
    expect(labels).toEqual(['Freigeben', 'Ablehnen']);

    // The requester cannot approve their own change; an English approver sends it.
    const own: Sent[] = [];
    await flow.buttons.approve(fakeInteraction('requester', 'de', own), record.id);
    expect(own[0]?.body.content).toBe(
      'Du hast diese Änderung beantragt: Jemand anderes muss sie freigeben. Es wurde nichts gesendet.',
    );
    const approving: Sent[] = [];
    await flow.buttons.approve(fakeInteraction('approver', 'en-GB', approving), record.id);
    expect(embedOf(approving.find((s) => s.kind === 'update')).description).toBe(
      'Freigegeben von <@approver> — wird gesendet…',
    );
    expect(embedOf(approving.find((s) => s.kind === 'editReply')).description).toBe(
      '**Erledigt** — beantragt von <@requester>, freigegeben von <@approver>.',
    );
    // The password-like private part goes to the approver, in their language; the record to the channel.
    expect(contexts[0]?.t.locale).toBe('en');
    const [secret, record2] = approving.filter((s) => s.kind === 'followUp');
    expect(secret?.body.content).toBe('en: host.example.com private');
    expect(record2?.body.content).toBe('de: host.example.com public (freigegeben von <@approver>)');
    // The German request, the English prompt's steps and the outcome came from the record: the change
    // itself was asked only to send.
    expect(asked).toEqual(['send']);
  });

  it('opens the reject form in the presser’s language and records the rejection in BOT_LOCALE', async () => {
    await start('de', ['/server rdns']);
    const sent: Sent[] = [];
    const record = await prompt('en', sent);
    await flow.buttons.confirm(fakeInteraction('requester', 'en-US', sent), record.id);
    const form: Sent[] = [];
    await flow.buttons.reject(fakeInteraction('approver', 'en-US', form), record.id);
    expect(form[0]?.body.title).toBe('Reject this change');
    const modal = {
      ...fakeInteraction('approver', 'de', form),
      isButton: () => false,
      fields: { getTextInputValue: () => 'falscher Host' },
    };
    await flow.buttons.reject(modal, record.id);
    expect(form.at(-1)?.body.content).toBe('Abgelehnt. Es wurde nichts gesendet.');
    expect(embedOf({ kind: 'reply', body: posted.at(-1)?.body ?? {} }).description).toBe(
      '**Abgelehnt** von <@approver>: falscher Host. Es wurde nichts gesendet.',
    );
  });
});
