import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  type ClientOptions,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  type Interaction,
  MessageFlags,
  ModalBuilder,
  Routes,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type DispatchedInteraction, FakeDiscord, type RecordedRequest } from './support/FakeDiscord.js';

const resources: { clients: Client[]; fakes: FakeDiscord[] } = { clients: [], fakes: [] };

afterEach(async () => {
  await Promise.all(resources.clients.map((c) => c.destroy()));
  resources.clients = [];
  await Promise.all(resources.fakes.map((f) => f.stop()));
  resources.fakes = [];
});

async function startFake(options?: Parameters<typeof FakeDiscord.start>[0]): Promise<FakeDiscord> {
  const fake = await FakeDiscord.start(options);
  resources.fakes.push(fake);
  return fake;
}

function newClient(fake: FakeDiscord, ws?: ClientOptions['ws']): Client {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    rest: { api: fake.apiUrl },
    ...(ws === undefined ? {} : { ws }),
  });
  resources.clients.push(client);
  return client;
}

async function connect(fake: FakeDiscord, ws?: ClientOptions['ws']): Promise<Client> {
  const client = newClient(fake, ws);
  const ready = once(client, Events.ClientReady);
  await client.login(fake.token);
  await ready;
  return client;
}

/** Runs `handler` for every interaction and surfaces its failures to the test instead of swallowing them. */
function handle(client: Client, handler: (i: Interaction) => Promise<unknown>): { errors: unknown[] } {
  const state = { errors: [] as unknown[] };
  client.on(Events.InteractionCreate, (i) => {
    handler(i).catch((error: unknown) => state.errors.push(error));
  });
  return state;
}

const isCallback = (i: DispatchedInteraction) => (r: RecordedRequest) =>
  r.path === `/interactions/${i.id}/${i.token}/callback`;

describe('FakeDiscord with a real discord.js Client', () => {
  it('lets the client log in and become ready with cached guild, channels, roles and members', async () => {
    const fake = await startFake({
      guilds: [{ name: 'Ops', channelCount: 3, memberCount: 300, roles: [{ id: '111', name: 'operator' }] }],
    });
    const client = await connect(fake);
    await fake.waitForReady();

    expect(client.isReady()).toBe(true);
    expect(client.user?.id).toBe(fake.botUserId);
    expect(client.application?.id).toBe(fake.applicationId);
    const guild = client.guilds.cache.get(fake.guildId);
    expect(guild?.name).toBe('Ops');
    expect(guild?.available).toBe(true);
    expect(guild?.large).toBe(true);
    expect(guild?.memberCount).toBe(300);
    expect(guild?.members.cache.size).toBe(300);
    expect(guild?.channels.cache.size).toBe(3);
    expect(guild?.channels.cache.get(fake.channelId)?.isTextBased()).toBe(true);
    expect(guild?.roles.everyone.id).toBe(fake.guildId);
    expect(guild?.roles.cache.get('111')?.name).toBe('operator');
    expect(guild?.members.me?.id).toBe(fake.botUserId);

    expect(fake.identifyCount).toBe(1);
    expect(fake.gatewayConnected).toBe(true);
    const gatewayBot = fake.requests.find((r) => r.path === '/gateway/bot');
    expect(gatewayBot?.headers.authorization).toBe(`Bot ${fake.token}`);
  });

  it('rejects a wrong bot token with 401, which makes login() fail', async () => {
    const fake = await startFake();
    const client = newClient(fake);
    await expect(client.login('not-the-token')).rejects.toMatchObject({ code: 'TokenInvalid' });
    const gatewayBot = fake.requests.find((r) => r.path === '/gateway/bot');
    expect(gatewayBot).toBeDefined();
  });

  it('records interaction.reply() as a type-4 callback sent without Authorization', async () => {
    const fake = await startFake();
    const client = await connect(fake);
    const seen: Interaction[] = [];
    const state = handle(client, async (i) => {
      seen.push(i);
      if (i.isChatInputCommand()) await i.reply({ content: 'pong' });
    });

    const before = Date.now();
    const i = fake.dispatchInteraction({ commandName: 'ping' });
    const callback = await fake.waitForRequest(isCallback(i));

    expect(callback.method).toBe('POST');
    expect(callback.body).toMatchObject({ type: 4, data: { content: 'pong' } });
    expect(callback.query.get('with_response')).toBe('false');
    expect(callback.headers.authorization).toBeUndefined();
    expect(callback.at).toBeGreaterThanOrEqual(i.dispatchedAt);
    expect(fake.requestsFor(i)).toEqual([callback]);
    expect(fake.originalMessage(i)?.content).toBe('pong');

    const interaction = seen[0];
    expect(interaction?.isChatInputCommand() && interaction.commandName).toBe('ping');
    expect(interaction?.id).toBe(i.id);
    expect(interaction?.inGuild()).toBe(true);
    expect(interaction?.channelId).toBe(fake.channelId);
    expect(interaction?.user.id).toBe(fake.userId);
    // Snowflakes carry the real dispatch time, so "is this interaction about to expire" logic works.
    expect(interaction?.createdTimestamp).toBeGreaterThanOrEqual(before);
    expect(interaction?.createdTimestamp).toBeLessThanOrEqual(Date.now());
    expect(state.errors).toEqual([]);
  });

  it('answers a second acknowledgement with 40060', async () => {
    const fake = await startFake();
    const client = await connect(fake);
    const codes: unknown[] = [];
    handle(client, async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply({ content: 'first' });
      // Bypass discord.js's own "already replied" guard to reach the API.
      await client.rest
        .post(`/interactions/${i.id}/${i.token}/callback`, {
          body: { type: 4, data: { content: 'x' } },
          auth: false,
        })
        .catch((error: unknown) => codes.push(error instanceof DiscordAPIError ? error.code : error));
    });
    const i = fake.dispatchInteraction({ commandName: 'twice' });
    await fake.waitForRequest(
      (r) => isCallback(i)(r) && (r.body as { data?: { content?: string } }).data?.content === 'x',
    );
    await expect.poll(() => codes).toEqual([40060]);
  });

  it('records deferReply + editReply as a type-5 callback then a PATCH to @original', async () => {
    const fake = await startFake();
    const client = await connect(fake);
    const state = handle(client, async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply({ flags: 'Ephemeral' });
      const message = await i.editReply({ content: 'done' });
      expect(message.content).toBe('done');
    });

    const i = fake.dispatchInteraction({ commandName: 'slow' });
    const patch = await fake.waitForRequest(
      (r) => r.method === 'PATCH' && r.path.endsWith('/messages/@original'),
    );

    const [callback, edit] = fake.requestsFor(i);
    expect(callback?.body).toMatchObject({ type: 5, data: { flags: 64 } });
    expect(edit).toBe(patch);
    expect(patch.path).toBe(`/webhooks/${fake.applicationId}/${i.token}/messages/@original`);
    expect(patch.body).toMatchObject({ content: 'done' });
    const original = fake.originalMessage(i);
    expect(original?.content).toBe('done');
    expect(original?.flags).toBe(64);
    expect(state.errors).toEqual([]);
  });

  it('builds options, subcommands, roles and DMs the way discord.js parses them', async () => {
    const fake = await startFake();
    const client = await connect(fake);
    const seen: Interaction[] = [];
    handle(client, async (i) => {
      seen.push(i);
    });

    fake.dispatchInteraction({
      commandName: 'server',
      subcommand: 'restart',
      options: { name: 'web-1', count: 3, force: true },
      userId: '4242',
      username: 'alice',
      roles: ['777'],
    });
    fake.dispatchInteraction({ commandName: 'status', guildId: null, userId: '4242' });
    await expect.poll(() => seen.length).toBe(2);

    const [guildCmd, dmCmd] = seen;
    if (!guildCmd?.isChatInputCommand() || !dmCmd?.isChatInputCommand()) throw new Error('expected commands');
    expect(guildCmd.options.getSubcommand()).toBe('restart');
    expect(guildCmd.options.getString('name')).toBe('web-1');
    expect(guildCmd.options.getInteger('count')).toBe(3);
    expect(guildCmd.options.getBoolean('force')).toBe(true);
    expect(guildCmd.user.username).toBe('alice');
    expect(guildCmd.inCachedGuild() && guildCmd.member.roles.cache.has('777')).toBe(true);
    expect(guildCmd.memberPermissions?.has('ManageGuild')).toBe(false);
    expect(guildCmd.appPermissions.has('SendMessages')).toBe(true);

    expect(dmCmd.inGuild()).toBe(false);
    expect(dmCmd.guildId).toBeNull();
    expect(dmCmd.member).toBeNull();
    expect(dmCmd.user.id).toBe('4242');
    expect(dmCmd.context).toBe(1);
  });

  it('supports buttons (update) and modals (showModal → submit)', async () => {
    const fake = await startFake();
    const client = await connect(fake);
    const state = handle(client, async (i) => {
      if (i.isChatInputCommand()) {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('confirm').setLabel('Confirm').setStyle(ButtonStyle.Danger),
        );
        await i.reply({ content: 'Sure?', components: [row] });
      } else if (i.isButton()) {
        const modal = new ModalBuilder()
          .setCustomId('reason')
          .setTitle('Why?')
          .addComponents(
            new ActionRowBuilder<TextInputBuilder>().addComponents(
              new TextInputBuilder().setCustomId('text').setLabel('Reason').setStyle(TextInputStyle.Short),
            ),
          );
        await i.showModal(modal);
      } else if (i.isModalSubmit()) {
        await i.reply({ content: `because ${i.fields.getTextInputValue('text')}` });
      }
    });

    const command = fake.dispatchInteraction({ commandName: 'delete' });
    await fake.waitForRequest(isCallback(command));
    const posted = fake.originalMessage(command);
    expect(posted?.components).toHaveLength(1);

    const click = fake.dispatchComponent({ customId: 'confirm', message: { id: posted?.id ?? '' } });
    const modalCallback = await fake.waitForRequest(isCallback(click));
    expect(modalCallback.body).toMatchObject({ type: 9, data: { custom_id: 'reason', title: 'Why?' } });

    const submit = fake.dispatchModalSubmit({ customId: 'reason', fields: { text: 'disk full' } });
    const reply = await fake.waitForRequest(isCallback(submit));
    expect(reply.body).toMatchObject({ type: 4, data: { content: 'because disk full' } });
    expect(state.errors).toEqual([]);
  });

  it('resumes after the TCP connection drops, and delivers interactions dispatched meanwhile', async () => {
    const fake = await startFake();
    const client = await connect(fake);
    handle(client, async (i) => {
      if (i.isChatInputCommand()) await i.reply({ content: `pong ${i.commandName}` });
    });
    const resumed = once(client, Events.ShardResume);

    fake.dropGateway();
    expect(fake.gatewayConnected).toBe(false);
    const during = fake.dispatchInteraction({ commandName: 'during' });
    await fake.waitForReady();
    await resumed;

    expect(fake.resumeCount).toBe(1);
    expect(fake.identifyCount).toBe(1);
    const after = fake.dispatchInteraction({ commandName: 'after' });
    const [a, b] = await Promise.all([
      fake.waitForRequest(isCallback(during)),
      fake.waitForRequest(isCallback(after)),
    ]);
    expect(a.body).toMatchObject({ data: { content: 'pong during' } });
    expect(b.body).toMatchObject({ data: { content: 'pong after' } });
  });

  // fake.waitForReady() resolves when the fake has *sent* RESUMED/READY; awaiting the client's own event too
  // matters, because destroying a discord.js client that is still mid-handshake makes it reconnect by itself.
  it('resumes after a resumable close code (4000) and after op 7 RECONNECT', async () => {
    const fake = await startFake();
    const client = await connect(fake);

    let resumed = once(client, Events.ShardResume);
    fake.closeGateway(4000, 'Unknown error');
    await fake.waitForReady();
    await resumed;
    expect(fake.resumeCount).toBe(1);

    resumed = once(client, Events.ShardResume);
    fake.requestReconnect();
    await fake.waitForReady();
    await resumed;
    expect(fake.resumeCount).toBe(2);
    expect(fake.identifyCount).toBe(1);
  });

  it('resumes a zombied connection when heartbeat ACKs stop', async () => {
    const fake = await startFake({ heartbeatIntervalMs: 150 });
    const client = await connect(fake);
    const resumed = once(client, Events.ShardResume);
    fake.setHeartbeatAcks(false);
    // The client notices the missing ACK on its next beat, closes with 4200 and resumes.
    await expect.poll(() => fake.resumeCount, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    fake.setHeartbeatAcks(true);
    await resumed;
    expect(fake.identifyCount).toBe(1);
  });

  it('refuses to resume a session ended by 4009 (op 9), so the client identifies again', async () => {
    const fake = await startFake();
    // discord.js waits 5 s between two IDENTIFYs of a shard; a no-op throttler keeps the test fast.
    const client = await connect(fake, {
      buildIdentifyThrottler: () => ({ waitForIdentify: async () => undefined }),
    });

    const reconnecting = once(client, Events.ShardReconnecting);
    const readyAgain = once(client, Events.ShardReady);
    fake.closeGateway(4009, 'Session timed out.');
    await reconnecting;
    await readyAgain;
    expect(fake.identifyCount).toBe(2);
    expect(fake.resumeCount).toBe(0);
  });

  // discord.js treats 4004/4014 as fatal: the shard emits `shardError` (plain Error with the message below)
  // and `shardDisconnect` with the close code, and never reconnects. `client.isReady()` stays true after a
  // live session is killed; no `Events.Error` is emitted. During login, login() rejects with that same Error.
  const FATAL = [
    [4004, 'Authentication failed'],
    [4014, 'Used disallowed intents'],
  ] as const;

  it('close codes 4004 and 4014 on a live session: shardError + shardDisconnect, no reconnect', async () => {
    // Both at once, each on its own fake and client: the wait for a reconnect that must not come is shared.
    await Promise.all(
      FATAL.map(async ([code, message]) => {
        const fake = await startFake();
        const client = await connect(fake);
        const errors: Error[] = [];
        client.on(Events.ShardError, (error) => errors.push(error));
        const disconnected = once(client, Events.ShardDisconnect);

        fake.closeGateway(code);
        const [event, shardId] = (await disconnected) as [{ code: number }, number];

        expect(event.code).toBe(code);
        expect(shardId).toBe(0);
        await expect.poll(() => errors.map((e) => e.message)).toEqual([message]);
        await sleep(800); // longer than discord.js's 500 ms reconnect delay
        expect(fake.gatewayConnected).toBe(false);
        expect(fake.identifyCount + fake.resumeCount).toBe(1);
      }),
    );
  });

  it('close codes 4004 and 4014 in answer to IDENTIFY make login() reject', async () => {
    await Promise.all(
      FATAL.map(async ([code, message]) => {
        const fake = await startFake();
        const client = newClient(fake);
        fake.failNextIdentify(code);
        await expect(client.login(fake.token)).rejects.toThrow(message);
        await sleep(800);
        expect(fake.identifyCount).toBe(0);
        expect(fake.gatewayConnected).toBe(false);
      }),
    );
  });

  it('injects callback failures: 404 Unknown interaction, and a 429 that discord.js retries', async () => {
    const fake = await startFake();
    const client = await connect(fake);
    const state = handle(client, async (i) => {
      if (i.isChatInputCommand()) await i.reply({ content: 'hi' });
    });

    fake.failNextCallback(404, { code: 10062, message: 'Unknown interaction' });
    fake.dispatchInteraction({ commandName: 'expired' });
    await expect.poll(() => state.errors.length).toBe(1);
    expect(state.errors[0]).toBeInstanceOf(DiscordAPIError);
    expect((state.errors[0] as DiscordAPIError).code).toBe(10062);

    fake.failNextCallback(429, { message: 'You are being rate limited.', retry_after: 0.05, global: false });
    const limited = fake.dispatchInteraction({ commandName: 'limited' });
    await expect.poll(() => fake.requestsFor(limited).length, { timeout: 5000 }).toBe(2);
    expect(fake.originalMessage(limited)?.content).toBe('hi');
    expect(state.errors).toHaveLength(1);
  });

  it('refuses a callback later than the deadline with 10062, and an edit after the token lifetime with 50027', async () => {
    // Discord's own figures are 3 s and 15 minutes (the defaults); shortened here to keep the test quick,
    // each on a fake of its own so that what must be in time keeps Discord's 3 s.
    const lateFake = await startFake({ callbackDeadlineMs: 150 });
    const editFake = await startFake({ tokenLifetimeMs: 200 });
    const [lateClient, editClient] = await Promise.all([connect(lateFake), connect(editFake)]);
    const lateState = handle(lateClient, async (i) => {
      if (!i.isChatInputCommand()) return;
      await sleep(300);
      await i.reply({ content: 'too late' });
    });
    const editState = handle(editClient, async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply({ content: 'in time' });
      await sleep(400);
      await i.editReply({ content: 'too late' });
    });

    const late = lateFake.dispatchInteraction({ commandName: 'late' });
    const edited = editFake.dispatchInteraction({ commandName: 'edit-late' });
    await expect.poll(() => lateState.errors.length + editState.errors.length, { timeout: 5_000 }).toBe(2);

    expect((lateState.errors[0] as DiscordAPIError).code).toBe(10062);
    expect((lateState.errors[0] as DiscordAPIError).status).toBe(404);
    expect(lateFake.requestsFor(late).map((r) => r.status)).toEqual([404]);
    expect(lateFake.originalMessage(late)).toBeUndefined();

    expect((editState.errors[0] as DiscordAPIError).code).toBe(50027);
    expect(editFake.requestsFor(edited).map((r) => `${r.method} ${r.status}`)).toEqual([
      'POST 204',
      'PATCH 401',
    ]);
    expect(editFake.originalMessage(edited)?.content).toBe('in time');
  });

  it('records which message a request created or edited, and whether it is ephemeral', async () => {
    const fake = await startFake();
    const client = await connect(fake);
    handle(client, async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply({ content: 'private', flags: MessageFlags.Ephemeral });
      await i.editReply({ content: 'still private' });
      await i.followUp({ content: 'public' });
    });
    const i = fake.dispatchInteraction({ commandName: 'mixed' });
    await expect.poll(() => fake.requestsFor(i).length).toBe(3);
    const [reply, edit, followUp] = fake.requestsFor(i);
    const original = fake.originalMessage(i)?.id;
    expect(reply?.message).toEqual({ id: original, ephemeral: true });
    expect(edit?.message).toEqual({ id: original, ephemeral: true });
    expect(followUp?.message?.ephemeral).toBe(false);
    expect(followUp?.message?.id).not.toBe(original);
    expect(fake.getMessage(followUp?.message?.id ?? '')?.content).toBe('public');
  });

  it('holds a resume for as long as the test says, then lets it through', async () => {
    const fake = await startFake();
    const client = await connect(fake);
    const release = fake.holdSessions();
    const resumed = once(client, Events.ShardResume);
    fake.dropGateway();
    await expect.poll(() => fake.heldSessionCount, { timeout: 5_000 }).toBe(1);
    expect(fake.resumeCount).toBe(0);
    release();
    await resumed;
    expect(fake.resumeCount).toBe(1);
    expect(fake.identifyCount).toBe(1);
  });

  it('enforces Discord message limits and slows REST down on request', async () => {
    // The fake's own limit errors, as Discord words them (the check against the OpenAPI description,
    // which would refuse the body first, is tested in discordSpec.test.ts).
    const fake = await startFake({ interactionCallbackDelayMs: 200, checkAgainstSpec: false });
    const client = await connect(fake);
    const state = handle(client, async (i) => {
      if (i.isChatInputCommand()) await i.reply({ content: 'x'.repeat(2001) });
    });
    const i = fake.dispatchInteraction({ commandName: 'long' });
    await expect.poll(() => state.errors.length).toBe(1);
    const error = state.errors[0] as DiscordAPIError;
    expect(error.code).toBe(50035);
    expect(error.rawError).toMatchObject({
      errors: { data: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } },
    });
    const callback = fake.requestsFor(i)[0];
    expect(callback).toBeDefined();

    fake.setRestDelay(150);
    const started = performance.now();
    await client.channels.fetch(fake.channelId, { force: true });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('serves command registration, channel messages and the application', async () => {
    const fake = await startFake();
    const client = await connect(fake);
    const application = await client.application?.fetch();
    expect(application?.id).toBe(fake.applicationId);

    const [global] = [
      ...((await client.application?.commands.set([{ name: 'ping', description: 'Ping' }])) ?? []),
    ];
    await client.application?.commands.set([{ name: 'admin', description: 'Admin' }], fake.guildId);
    expect(fake.requests.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual([
      `/applications/${fake.applicationId}/commands`,
      `/applications/${fake.applicationId}/guilds/${fake.guildId}/commands`,
    ]);
    const seen: Interaction[] = [];
    handle(client, async (i) => {
      seen.push(i);
    });
    fake.dispatchInteraction({ commandName: 'ping' });
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]?.isChatInputCommand() && seen[0].commandId).toBe(global?.[0]);

    const channel = await client.channels.fetch(fake.channelId);
    if (!channel?.isSendable()) throw new Error('expected a sendable channel');
    const sent = await channel.send({
      content: 'deploy finished',
      embeds: [{ title: 'web-1', description: 'ok' }],
    });
    expect(sent.author.id).toBe(fake.botUserId);
    expect(fake.channelMessages().map((m) => m.content)).toContain('deploy finished');
    // discord.js does not guard against an empty message; Discord (and the fake) answer 50006.
    await expect(channel.send({})).rejects.toMatchObject({ code: 50006 });
    const unknown = client.rest.post(Routes.channelMessages('1'), { body: { content: 'x' } });
    await expect(unknown).rejects.toMatchObject({ code: 10003, status: 404 });
  });
});
