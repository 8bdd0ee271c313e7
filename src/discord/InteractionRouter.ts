import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIEmbed,
  type ButtonInteraction,
  ButtonStyle,
  type ChatInputCommandInteraction,
  ComponentType,
  DiscordAPIError,
  type Interaction,
  MessageFlags,
  type ModalSubmitInteraction,
  TextInputStyle,
  TimestampStyles,
  time,
  userMention,
} from 'discord.js';
import type { Config } from '../config.js';
import { newCorrelationId } from '../correlationId.js';
import type { HostingClient } from '../hosting/HostingClient.js';
import type { Logger, SecretRegistry } from '../logger.js';
import { handlerScope } from '../processGuards.js';
import { cutText } from '../text/cutText.js';
import { checkGates, type Tier } from './access.js';
import type {
  ChangeOutcome,
  ChangeRequest,
  CommandContext,
  CommandModule,
  ModalRequest,
  Subcommand,
} from './CommandModule.js';
import { type CommandOutcome, describeError } from './describeError.js';
import { PendingStore } from './PendingStore.js';
import { Colour } from './render/colours.js';
import { RefusalError, UserError } from './UserError.js';

export interface RouterObserver {
  /** Time from receiving the interaction to Discord accepting our first response. */
  acknowledged(command: string, ms: number): void;
  /** A command reached its end state; ms counts from receipt (for changes: up to the outcome). */
  finished(command: string, outcome: CommandOutcome, ms: number): void;
}

export interface RouterDeps {
  commands: readonly CommandModule[];
  hosting: HostingClient;
  config: Config;
  logger: Logger;
  secrets: SecretRegistry;
  generatePassword: () => string;
  now?: () => Date;
  observer?: RouterObserver;
}

interface Invocation {
  label: string;
  correlationId: string;
  userId: string;
  startedAt: number;
  logger: Logger;
}

interface PendingChange {
  invocation: Invocation;
  change: ChangeRequest;
  tier: Tier;
  /** The interaction whose reply is the prompt: used to mark it expired. */
  prompt: ChatInputCommandInteraction | ModalSubmitInteraction;
}

interface PendingModal {
  invocation: Invocation;
  tier: Tier;
  request: ModalRequest;
}

const CUSTOM_ID = /^hostops:(confirm|cancel|modal):([\w-]+)$/;
// Interaction tokens outlive this by a minute; a modal left open longer is simply forgotten.
const MODAL_TTL_MS = 14 * 60_000;
const FIELD_LIMIT = 1024;
const RESTARTING = 'HostOps is restarting; try again in a minute.';

/**
 * From INTERACTION_CREATE to the reply: finds the command, runs the gates, parses options, defers,
 * runs the handler, holds changes until confirmed, and is the one place errors become replies.
 */
export class InteractionRouter {
  readonly #deps: RouterDeps;
  readonly #subcommands = new Map<string, Subcommand>();
  readonly #changes: PendingStore<PendingChange>;
  readonly #modals: PendingStore<PendingModal>;
  readonly #inFlight = new Set<Promise<void>>();
  /** Confirmed changes whose API call is under way, so a forced shutdown can tell their owners. */
  readonly #sending = new Map<
    string,
    { interaction: ButtonInteraction; change: ChangeRequest; invocation: Invocation }
  >();
  #draining = false;

  constructor(deps: RouterDeps) {
    this.#deps = deps;
    for (const module of deps.commands) {
      for (const [name, subcommand] of Object.entries(module.subcommands)) {
        this.#subcommands.set(commandLabel(module.definition.name, name), subcommand);
      }
    }
    this.#changes = new PendingStore(deps.config.confirmTimeoutMs, (entry) =>
      this.#track(this.#expire(entry.value)),
    );
    this.#modals = new PendingStore(MODAL_TTL_MS, () => {});
  }

  /** Never rejects: every failure is answered and logged here. */
  handle(interaction: Interaction): Promise<void> {
    const task = handlerScope.run({ interactionId: interaction.id }, () =>
      this.#route(interaction).catch((error: unknown) => {
        this.#deps.logger.error({ err: error, interaction: interaction.id }, 'interaction handling failed');
      }),
    );
    return this.#track(task);
  }

  #track(task: Promise<void>): Promise<void> {
    this.#inFlight.add(task);
    void task.finally(() => this.#inFlight.delete(task));
    return task;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Stops taking new commands, tells owners of open prompts that nothing was sent, and waits up to
   * graceMs for commands in flight (confirmed changes included) to deliver their answers.
   * Resolves true when everything finished in time.
   */
  async drain(graceMs: number): Promise<boolean> {
    this.#draining = true;
    this.#changes.expireAll();
    const deadline = Date.now() + graceMs;
    while (this.#inFlight.size > 0) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        await this.#abandonSending();
        return false;
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, remaining);
      });
      await Promise.race([Promise.allSettled([...this.#inFlight]), timeout]);
      clearTimeout(timer);
    }
    return true;
  }

  /** Out of time: a change still waiting for the provider was sent, so its outcome is unknown. */
  async #abandonSending(): Promise<void> {
    const abandoned = [...this.#sending.values()];
    this.#sending.clear();
    await Promise.all(
      abandoned.map(async ({ interaction, change, invocation }) => {
        const status =
          '**Outcome unknown** — HostOps had to restart before the provider answered; the request was sent. ' +
          `Check before trying again. Reference: \`${invocation.correlationId}\`.`;
        await this.#safely(invocation, () =>
          interaction.editReply({ embeds: [previewEmbed(change, Colour.danger, status)], components: [] }),
        );
        this.#finish(invocation, 'failed');
      }),
    );
  }

  async #route(interaction: Interaction): Promise<void> {
    if (interaction.isChatInputCommand()) return this.#command(interaction);
    if (interaction.isButton() || interaction.isModalSubmit()) {
      const match = CUSTOM_ID.exec(interaction.customId);
      if (!match) return;
      const [, action, nonce = ''] = match;
      if (interaction.isModalSubmit() && action === 'modal') return this.#modalSubmitted(interaction, nonce);
      if (interaction.isButton() && action === 'confirm') return this.#confirm(interaction, nonce);
      if (interaction.isButton() && action === 'cancel') return this.#cancel(interaction, nonce);
    }
  }

  async #command(interaction: ChatInputCommandInteraction): Promise<void> {
    // The whole path: `/domain admin info` is not `/domain info`.
    const path = [
      interaction.commandName,
      interaction.options.getSubcommandGroup(false),
      interaction.options.getSubcommand(false),
    ].filter((part): part is string => Boolean(part));
    const label = `/${path.join(' ')}`;
    const correlationId = newCorrelationId();
    const scope = handlerScope.getStore();
    if (scope) Object.assign(scope, { correlationId, command: label });
    const invocation: Invocation = {
      label,
      correlationId,
      userId: interaction.user.id,
      startedAt: performance.now(),
      logger: this.#deps.logger.child({
        cid: correlationId,
        command: label,
        user: interaction.user.id,
        guild: interaction.guildId,
        channel: interaction.channelId,
      }),
    };
    try {
      if (this.#draining) throw new RefusalError(RESTARTING, 'shutting_down');
      const subcommand = this.#subcommands.get(label);
      if (!subcommand) {
        throw new UserError(
          `\`${label}\` is not a command this version of HostOps knows. Ask an admin to redeploy the commands.`,
        );
      }
      const tier = checkGates(interaction, subcommand.tier, this.#deps.config.access, label, {
        anyChannel: subcommand.kind === 'info' && subcommand.anywhere === true,
      });
      const context = this.#context(interaction, invocation, tier);
      switch (subcommand.kind) {
        case 'info':
          await this.#acknowledge(invocation, interaction.reply(ephemeral(subcommand.respond(context))));
          this.#finish(invocation, 'ok');
          return;
        case 'read': {
          const input = subcommand.parse(context);
          // The deferral goes out first; the API call starts while Discord is still accepting it, so
          // the acknowledgement round trip does not add to the provider's latency. A read is safe to
          // start even if the deferral then fails.
          const deferred = interaction.deferReply();
          const running = subcommand.run(context, input as never);
          running.catch(() => {}); // awaited below, after the deferral settles
          await this.#acknowledge(invocation, deferred);
          const result = await running;
          const [first = { content: 'Nothing to show.' }, ...rest] = Array.isArray(result)
            ? result
            : [result];
          await interaction.editReply(first);
          for (const body of rest) await interaction.followUp(body);
          this.#finish(invocation, 'ok');
          return;
        }
        case 'change': {
          const prepared = subcommand.prepare(context);
          if ('submit' in prepared) {
            await this.#openModal(interaction, invocation, tier, prepared);
          } else {
            await this.#prompt(interaction, invocation, tier, prepared);
          }
          return;
        }
      }
    } catch (error) {
      await this.#fail(interaction, invocation, error);
    }
  }

  #context(interaction: ChatInputCommandInteraction, invocation: Invocation, tier: Tier): CommandContext {
    const { hosting, config, secrets, commands, generatePassword } = this.#deps;
    return {
      interaction: interaction as CommandContext['interaction'],
      hosting,
      config,
      secrets,
      commands,
      generatePassword,
      tier,
      logger: invocation.logger,
      correlationId: invocation.correlationId,
      now: this.#deps.now ?? (() => new Date()),
    };
  }

  async #openModal(
    interaction: ChatInputCommandInteraction,
    invocation: Invocation,
    tier: Tier,
    request: ModalRequest,
  ): Promise<void> {
    const { nonce } = this.#modals.add(invocation.userId, { invocation, tier, request });
    await this.#acknowledge(
      invocation,
      interaction.showModal({
        title: request.title,
        custom_id: `hostops:modal:${nonce}`,
        components: [
          {
            type: ComponentType.ActionRow,
            components: [
              {
                type: ComponentType.TextInput,
                custom_id: 'text',
                label: request.input.label,
                style: TextInputStyle.Paragraph,
                required: true,
                max_length: request.input.maxLength ?? 4000,
                ...(request.input.placeholder ? { placeholder: request.input.placeholder } : {}),
              },
            ],
          },
        ],
      }),
    );
  }

  async #modalSubmitted(interaction: ModalSubmitInteraction, nonce: string): Promise<void> {
    const entry = this.#modals.peek(nonce);
    if (!entry || entry.ownerId !== interaction.user.id) {
      await interaction.reply(ephemeral({ content: 'This form is no longer open. Run the command again.' }));
      return;
    }
    this.#modals.take(nonce);
    const { invocation, tier, request } = entry.value;
    try {
      if (this.#draining) throw new RefusalError(RESTARTING, 'shutting_down');
      const change = request.submit(interaction.fields.getTextInputValue('text'));
      await this.#prompt(interaction, invocation, tier, change);
    } catch (error) {
      await this.#fail(interaction, invocation, error);
    }
  }

  async #prompt(
    interaction: ChatInputCommandInteraction | ModalSubmitInteraction,
    invocation: Invocation,
    tier: Tier,
    change: ChangeRequest,
  ): Promise<void> {
    const entry = this.#changes.add(invocation.userId, { invocation, change, tier, prompt: interaction });
    const expires = time(new Date(entry.expiresAt), TimestampStyles.RelativeTime);
    const body = {
      embeds: [
        {
          ...previewEmbed(change, Colour.warning),
          description: `Nothing is sent until you press **Confirm**. This prompt expires ${expires}.`,
        },
      ],
      components: [buttons(entry.nonce, false)],
      files: (change.files ?? []).map(({ name, content }) => ({
        name,
        attachment: Buffer.from(content, 'utf8'),
      })),
    };
    await this.#acknowledge(invocation, interaction.reply(ephemeral(body)));
    invocation.logger.info({ change: change.title }, 'change prompted');
  }

  async #confirm(interaction: ButtonInteraction, nonce: string): Promise<void> {
    const entry = this.#changes.peek(nonce);
    if (!entry) {
      await interaction.reply(
        ephemeral({
          content: 'This confirmation is no longer open: it was already used, cancelled or has expired.',
        }),
      );
      return;
    }
    if (entry.ownerId !== interaction.user.id) {
      await interaction.reply(
        ephemeral({ content: `Only ${userMention(entry.ownerId)} can confirm this change.` }),
      );
      return;
    }
    const { invocation, change, tier } = entry.value;
    const scope = handlerScope.getStore();
    if (scope) Object.assign(scope, { correlationId: invocation.correlationId, command: invocation.label });
    try {
      // Roles or channel rules may have changed while the prompt was open.
      checkGates(interaction, tier, this.#deps.config.access, invocation.label);
    } catch (error) {
      await this.#fail(interaction, invocation, error, false);
      return;
    }
    // Synchronous take: a second click finds nothing, so the change is sent at most once.
    if (!this.#changes.take(nonce)) return;
    if (this.#draining) {
      await interaction.update({
        embeds: [previewEmbed(change, Colour.neutral, `Not sent: ${RESTARTING}`)],
        components: [],
      });
      this.#finish(invocation, 'cancelled');
      return;
    }
    try {
      // Acknowledge first: if Discord no longer accepts this click, the user never saw it confirmed,
      // so nothing may be sent.
      await interaction.update({ embeds: [previewEmbed(change, Colour.info, 'Sending…')], components: [] });
    } catch (error) {
      invocation.logger.warn({ err: error }, 'confirmation could not be acknowledged; change not sent');
      this.#finish(invocation, 'failed');
      return;
    }
    // The audit line: who sent what (sensitive values named, not shown).
    const sent = change.preview.map(({ name, value, sensitive }) => ({
      name,
      value: sensitive ? '[REDACTED]' : value,
    }));
    invocation.logger.info({ change: change.title, sent }, 'change confirmed, sending');
    this.#sending.set(nonce, { interaction, change, invocation });
    let outcome: ChangeOutcome;
    try {
      outcome = await change.execute({
        hosting: this.#deps.hosting,
        correlationId: invocation.correlationId,
        logger: invocation.logger,
        secrets: this.#deps.secrets,
      });
    } catch (error) {
      const description = describeError(error, invocation.correlationId);
      this.#log(invocation, error, description.unexpected);
      // Gone from #sending means a forced shutdown already told the owner.
      if (!this.#sending.delete(nonce)) return;
      await this.#safely(invocation, () =>
        interaction.editReply({
          embeds: [previewEmbed(change, Colour.danger, description.message)],
          components: [],
        }),
      );
      this.#finish(invocation, description.outcome);
      return;
    }
    invocation.logger.info({ change: change.title }, 'change applied');
    if (!this.#sending.delete(nonce)) return;
    await this.#safely(invocation, () => interaction.editReply({ ...outcome.private, components: [] }));
    await this.#safely(invocation, () => interaction.followUp(outcome.public));
    this.#finish(invocation, 'ok');
  }

  async #cancel(interaction: ButtonInteraction, nonce: string): Promise<void> {
    const entry = this.#changes.peek(nonce);
    if (!entry || entry.ownerId !== interaction.user.id) {
      const content = entry
        ? `Only ${userMention(entry.ownerId)} can cancel this change.`
        : 'This confirmation is no longer open.';
      await interaction.reply(ephemeral({ content }));
      return;
    }
    if (!this.#changes.take(nonce)) return;
    const { invocation, change } = entry.value;
    await interaction.update({
      embeds: [previewEmbed(change, Colour.neutral, 'Cancelled — nothing was sent.')],
      components: [],
    });
    this.#finish(invocation, 'cancelled');
  }

  async #expire({ invocation, change, prompt }: PendingChange): Promise<void> {
    const status = this.#draining
      ? `Not sent: ${RESTARTING}`
      : 'Expired — nothing was sent. Run the command again.';
    await this.#safely(invocation, () =>
      prompt.editReply({
        embeds: [previewEmbed(change, Colour.neutral, status)],
        components: [buttons('x', true)],
      }),
    );
    this.#finish(invocation, 'expired');
  }

  /** The one place an error becomes an answer. */
  async #fail(
    interaction: ChatInputCommandInteraction | ModalSubmitInteraction | ButtonInteraction,
    invocation: Invocation,
    error: unknown,
    finish = true,
  ): Promise<void> {
    const description = describeError(error, invocation.correlationId);
    this.#log(invocation, error, description.unexpected);
    const body = { content: description.message, embeds: [], components: [] };
    await this.#safely(invocation, async () => {
      if (interaction.deferred || interaction.replied) await interaction.editReply(body);
      else await this.#acknowledge(invocation, interaction.reply(ephemeral(body)));
    });
    if (finish) this.#finish(invocation, description.outcome);
  }

  #log(invocation: Invocation, error: unknown, unexpected: boolean): void {
    if (unexpected) invocation.logger.error({ err: error }, 'command failed unexpectedly');
    else invocation.logger.info({ err: error }, 'command answered with an error');
  }

  /** Discord refusing a late answer (10062 unknown interaction, 40060 already acknowledged) is not fatal. */
  async #safely(invocation: Invocation, send: () => Promise<unknown>): Promise<void> {
    try {
      await send();
    } catch (error) {
      const code = error instanceof DiscordAPIError ? error.code : undefined;
      invocation.logger.warn({ err: error, discordCode: code }, 'could not deliver the answer to Discord');
    }
  }

  async #acknowledge(invocation: Invocation, response: Promise<unknown>): Promise<void> {
    await response;
    this.#deps.observer?.acknowledged(invocation.label, performance.now() - invocation.startedAt);
  }

  #finish(invocation: Invocation, outcome: CommandOutcome): void {
    const ms = performance.now() - invocation.startedAt;
    this.#deps.observer?.finished(invocation.label, outcome, ms);
    invocation.logger.info({ outcome, ms: Math.round(ms) }, 'command finished');
  }
}

/** `/domain info`, or `/help` for a command without subcommands (key ''). */
function commandLabel(command: string, subcommand: string): string {
  return `/${command}${subcommand ? ` ${subcommand}` : ''}`;
}

function ephemeral<T extends object>(body: T): T & { flags: MessageFlags.Ephemeral } {
  return { ...body, flags: MessageFlags.Ephemeral };
}

function previewEmbed(change: ChangeRequest, color: number, status?: string): APIEmbed {
  return {
    title: change.title,
    color,
    fields: change.preview.slice(0, 25).map(({ name, value, inline }) => ({
      name,
      value: fieldValue(value),
      inline: inline ?? false,
    })),
    ...(status ? { description: status } : {}),
  };
}

/**
 * Commands keep their previews within a field's 1024 characters; should one not, it is cut visibly,
 * saying how long it is, rather than rejected by Discord or cut silently.
 */
function fieldValue(value: string): string {
  if (value.length <= FIELD_LIMIT) return value;
  const note = ` … (${value.length.toLocaleString('en-US')} characters, not all shown)`;
  return cutText(value, FIELD_LIMIT - note.length, '') + note;
}

function buttons(nonce: string, disabled: boolean): APIActionRowComponent<APIButtonComponent> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Danger,
        label: 'Confirm',
        custom_id: `hostops:confirm:${nonce}`,
        disabled,
      },
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        label: 'Cancel',
        custom_id: `hostops:cancel:${nonce}`,
        disabled,
      },
    ],
  };
}
