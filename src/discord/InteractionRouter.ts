import { setTimeout as sleep } from 'node:timers/promises';
import type {
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  Interaction,
} from 'discord.js';
import { AccessGate } from '../access/AccessGate.js';
import { GrantCache } from '../access/GrantCache.js';
import { optionValues } from '../access/resourcesOf.js';
import { runsAnywhere } from '../access/tiers.js';
import { AuditTrail } from '../audit/AuditTrail.js';
import { ApprovalPolicy } from '../changes/ApprovalPolicy.js';
import { ChangeJournal } from '../changes/ChangeJournal.js';
import { SecretSeal } from '../changes/SecretSeal.js';
import { pickLocale } from '../i18n/locales.js';
import { message, translator } from '../i18n/Translator.js';
import { handlerScope } from '../processGuards.js';
import { approvalNotHere, RefusalError, restarting, UserError } from '../replies/UserError.js';
import { cutText } from '../text/cutText.js';
import { Answers, ephemeral } from './Answers.js';
import { answerLater } from './answerLater.js';
import { answerUndecided } from './answerUndecided.js';
import { type ComponentContext, type ComponentHandler, isModalRequest } from './CommandModule.js';
import { CommandTable, commandPath } from './CommandTable.js';
import { ChangeFlow } from './changes/ChangeFlow.js';
import { checkOptionLimits } from './checkOptionLimits.js';
import { FORM_ACTIONS, isChangeButton, parseCustomId } from './customId.js';
import { FirstResponses } from './FirstResponses.js';
import { FormDesk } from './FormDesk.js';
import { commandContext, newInvocation } from './newInvocation.js';
import type { RouterDeps } from './RouterDeps.js';
import { withSandboxNotice } from './render/sandboxNotice.js';
import { WaitNotices } from './WaitNotices.js';
import { withAttachments } from './withAttachments.js';

/** How long refused calls get to settle their changes at shutdown before the rest is given up. */
const REFUSED_SETTLE_MS = 500;

export type { RouterObserver } from './Answers.js';

// Discord gives an autocomplete 3 seconds; what is not ready well before that is not sent.
const AUTOCOMPLETE_BUDGET_MS = 1500;

/**
 * From INTERACTION_CREATE to the reply: refuses other guilds, finds the command by its whole path,
 * runs the gates, parses options, answers reads, and hands changes to the ChangeFlow. Every error
 * becomes a reply through Answers.
 */
export class InteractionRouter {
  readonly #deps: RouterDeps;
  readonly #table: CommandTable;
  readonly #forms: FormDesk;
  readonly #inFlight = new Set<Promise<void>>();
  /** Interactions Discord has not had a first response to yet: what a scrape of /metrics gives way to. */
  readonly firstResponses = new FirstResponses();
  readonly #answers: Answers;
  readonly #changes: ChangeFlow;
  readonly #approvals: ApprovalPolicy;
  readonly #notices = new WaitNotices();
  /** The store's clock: what records, claims and audit rows are stamped with. */
  readonly #now: () => Date;
  readonly gate: AccessGate;
  readonly #contextDeps: RouterDeps & { gate: AccessGate };

  constructor(deps: RouterDeps) {
    this.#deps = deps;
    this.#table = new CommandTable(deps.commands);
    const specs = this.#table.specs;
    // Records, claims, audit rows and deadlines are the store's time (one clock for every replica, for
    // everything that orders or expires); `deps.now` pins the calendar of read answers.
    const now = deps.storeNow ?? (() => new Date());
    this.#now = now;
    this.#answers = new Answers(
      new AuditTrail(deps.store, deps.logger, deps.posts, (kind) => deps.observer?.postAbandoned?.(kind)),
      translator(deps.config.botLocale),
      now,
      deps.observer,
    );
    this.gate = new AccessGate(new GrantCache(deps.store, deps.config.access), deps.config.access, now);
    this.#contextDeps = { ...deps, gate: this.gate };
    this.#approvals = deps.approvals ?? new ApprovalPolicy(deps.store, deps.config.approval.required);
    this.#changes = new ChangeFlow(
      {
        approvals: this.#approvals,
        approvalsHere: deps.approvalsHere ?? true,
        journal: new ChangeJournal(
          deps.store,
          now,
          deps.config.confirmTimeoutMs,
          deps.replicaId,
          new SecretSeal(deps.config.hosting.token),
        ),
        store: deps.store,
        liveReplicas: deps.liveReplicas ?? (async () => [deps.replicaId]),
        messages: deps.messages,
        settlesOthers: deps.settlesOthers ?? true,
        specs,
        answers: this.#answers,
        hosting: deps.hosting,
        config: deps.config,
        resolver: deps.resolver,
        gate: this.gate,
        logger: deps.logger,
        secrets: deps.secrets,
        generatePassword: deps.generatePassword,
        now,
        ...(deps.readBackDelaysMs ? { readBackDelaysMs: deps.readBackDelaysMs } : {}),
      },
      (task) => void this.#track(task),
    );
    this.#forms = new FormDesk({ ...deps, specs, answers: this.#answers, changes: this.#changes });
    // Prompts that ran out while no HostOps was running.
    if (deps.settlesOthers ?? true) void this.#track(this.#changes.sweep());
  }

  async #peerAlive(): Promise<boolean> {
    try {
      return ((await this.#deps.peerBots?.()) ?? []).length > 0;
    } catch {
      return false;
    }
  }

  /** Never rejects (failures are answered and logged); resolves with whether this process took it. */
  handle(interaction: Interaction): Promise<boolean> {
    this.firstResponses.received(interaction);
    let taken = false;
    const task = handlerScope.run({ interactionId: interaction.id }, async () => {
      try {
        taken = await this.#claim(interaction);
        if (taken) await this.#route(interaction);
      } catch (error) {
        this.#deps.logger.error({ err: error, interaction: interaction.id }, 'interaction handling failed');
      } finally {
        this.firstResponses.settled(interaction);
      }
    });
    return this.#track(task).then(() => taken);
  }

  /**
   * The replica whose claim (a unique key in the store) lands first handles the interaction; others drop it.
   * A claim the store cannot decide is not won: answered "try again", never handled twice.
   */
  async #claim(interaction: Interaction): Promise<boolean> {
    const broadcast = this.#deps.broadcast ?? true;
    // SQLite is single-process (a second process refuses to start): over the gateway nobody races it.
    // A request to an HTTP endpoint can be replayed, so it is claimed there too.
    if (broadcast && this.#deps.store.engine === 'sqlite') return true;
    // A replica that is stopping leaves new interactions to one that is not, if there is one; over HTTP
    // nobody else received this one.
    if (broadcast && this.#changes.draining && (await this.#peerAlive())) return false;
    let won: boolean;
    try {
      won = await this.#deps.store.claims.claimInteraction(interaction.id, this.#deps.replicaId, this.#now());
    } catch (error) {
      this.#deps.logger.error({ err: error, interaction: interaction.id }, 'could not claim the interaction');
      await answerUndecided(interaction).catch((answerError: unknown) => {
        this.#deps.logger.warn({ err: answerError }, 'could not answer an undecided claim');
      });
      return false;
    }
    this.#deps.observer?.claimed?.(won);
    if (!won) this.#deps.logger.debug({ interaction: interaction.id }, 'handled by another replica');
    return won;
  }

  #track(task: Promise<void>): Promise<void> {
    const guarded = task.catch((error: unknown) => {
      this.#deps.logger.error({ err: error }, 'background task failed');
    });
    this.#inFlight.add(guarded);
    void guarded.finally(() => this.#inFlight.delete(guarded));
    return guarded;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Stops taking commands, waits up to graceMs for those in flight; true when all finished. Prompts stay open. */
  async drain(graceMs: number): Promise<boolean> {
    this.#changes.startDraining();
    const deadline = Date.now() + graceMs;
    while (this.#inFlight.size > 0) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        // What only waited for a connection was never sent: refused, it settles `failed` on its own path
        // (a moment for those settles); only what reached the provider is left to be given up as unknown.
        this.#deps.hosting.refuseWaiting();
        await Promise.race([
          Promise.allSettled([...this.#inFlight]),
          sleep(REFUSED_SETTLE_MS, undefined, { ref: false }),
        ]);
        await this.#changes.abandonSending();
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

  async #route(interaction: Interaction): Promise<void> {
    // Before anything else, for every kind of interaction: another server gets nothing from us.
    if (interaction.guildId !== null && interaction.guildId !== this.#deps.config.discord.guildId) {
      this.#deps.logger.warn(
        { interaction: interaction.id, guild: interaction.guildId, user: interaction.user.id },
        'interaction from another guild refused',
      );
      if (interaction.isAutocomplete()) await interaction.respond([]);
      else if (interaction.isRepliable()) {
        const t = translator(pickLocale(interaction.locale));
        await interaction.reply(ephemeral({ content: t('errors.other_guild') }));
      }
      return;
    }
    if (interaction.isChatInputCommand()) return this.#command(interaction);
    if (interaction.isAutocomplete()) return this.#autocomplete(interaction);
    if (!interaction.isButton() && !interaction.isModalSubmit()) return;
    const parsed = parseCustomId(interaction.customId);
    if (!parsed) return;
    const { action, id } = parsed;
    if (interaction.isModalSubmit()) {
      if (action === FORM_ACTIONS.submit) await this.#forms.submitted(interaction, id);
      if (action === 'reject') await this.#changes.rejectSubmitted(interaction, id);
      return;
    }
    await this.#button(interaction, action, id);
  }

  #button(interaction: ButtonInteraction, action: string, id: string): Promise<void> {
    if (isChangeButton(action)) return this.#changes.buttons[action](interaction, id);
    if (action === FORM_ACTIONS.edit) return this.#forms.edit(interaction, id);
    const handler = this.#table.component(action);
    return handler ? this.#component(interaction, action, handler, id) : Promise.resolve();
  }

  /** A button of a command's own answer: the same gates as the command, then the message is updated. */
  async #component(
    interaction: ButtonInteraction,
    action: string,
    handler: ComponentHandler,
    args: string,
  ): Promise<void> {
    const invocation = newInvocation(this.#deps.logger, interaction, `button ${action}`, false);
    try {
      if (this.#changes.draining) throw restarting();
      const { label } = invocation;
      const tier = await this.gate.check(interaction, { label, tier: handler.tier, kind: 'read' });
      // A button of an answer in the channel updates it in the channel's language.
      const inChannel = !interaction.message.flags.has('Ephemeral');
      const { data, later, ...body } = await handler.update({
        ...commandContext(this.#contextDeps, interaction, invocation, tier, inChannel),
        interaction: interaction as ComponentContext['interaction'],
        args,
      });
      await this.#answers.acknowledge(invocation, interaction.update(withAttachments(body)));
      this.#answers.data(interaction, data);
      // Work the update says is under way (the registry asked now): the message is edited to its end.
      await answerLater(this.#answers, invocation, interaction, { later });
    } catch (error) {
      await this.#answers.fail(interaction, invocation, error, false);
    }
  }

  async #command(interaction: ChatInputCommandInteraction): Promise<void> {
    const label = commandPath(interaction);
    const subcommand = this.#table.subcommand(label);
    const invocation = newInvocation(this.#deps.logger, interaction, label, subcommand?.kind === 'change');
    const scope = handlerScope.getStore();
    if (scope) Object.assign(scope, { correlationId: invocation.correlationId, command: label });
    try {
      if (this.#changes.draining) throw restarting();
      if (!subcommand) throw new UserError(message('errors.unknown_command', { command: label }));
      const tier = await this.gate.check(interaction, {
        label,
        tier: subcommand.tier,
        kind: subcommand.kind,
        values: optionValues(label, (name) => interaction.options.get(name)?.value),
        anyChannel: runsAnywhere(subcommand),
      });
      // A read answered in the channel speaks the channel's language; everything else the invoker's.
      const inChannel = subcommand.kind === 'read' && subcommand.ephemeral !== true;
      const context = commandContext(this.#contextDeps, interaction, invocation, tier, inChannel);
      checkOptionLimits(this.#table.options(label), interaction.options);
      switch (subcommand.kind) {
        case 'info': {
          const { data, ...body } = await subcommand.respond(context);
          await this.#answers.acknowledge(invocation, interaction.reply(ephemeral(body)));
          this.#answers.data(interaction, data);
          await this.#answers.finish(invocation, 'ok');
          return;
        }
        case 'read': {
          const input = subcommand.parse(context);
          invocation.target = subcommand.target?.(input) ?? null;
          // Told to the one who asked, in their language, while the read waits for a connection.
          const waitT = translator(invocation.locale);
          const notice = this.#notices.open((ahead) =>
            this.#answers.safely(invocation, () =>
              interaction.editReply({
                content:
                  ahead === 0 ? waitT('common.waiting_next') : waitT('common.waiting', { count: ahead }),
              }),
            ),
          );
          // The deferral and the API call start in the same turn, so the acknowledgement's round trip
          // does not add to the provider's latency. undici writes each on its reused connection a turn
          // later, the API request first (discord.js reaches undici a few microtasks after it): the
          // acknowledgement carries that write rather than the provider's latency carrying the
          // deferral's (docs/bench/2026-11-26-steady-ack-tail.md). A read is safe to start even if the deferral fails.
          const deferred = interaction.deferReply(subcommand.ephemeral ? ephemeral({}) : undefined);
          const running = subcommand
            .run({ ...context, call: { ...context.call, watcher: notice } }, input)
            .finally(() => notice.close());
          running.catch(() => {}); // awaited below, after the deferral settles
          await this.#answers.acknowledge(invocation, deferred);
          const result = await running;
          const [first = { content: context.t('errors.nothing_to_show') }, ...rest] = Array.isArray(result)
            ? result
            : [result];
          const { later, followUp, data, ...shown } = first;
          // The answer replaces the waiting notice, text included.
          const answer = notice.shown ? { content: '', ...shown } : shown;
          const sandbox = this.#deps.config.hosting.sandbox;
          await interaction.editReply(withAttachments(withSandboxNotice(answer, sandbox, context.t)));
          this.#answers.data(interaction, data);
          for (const { data: _data, later: _later, followUp: _followUp, ...body } of rest) {
            const followUp = withAttachments(body);
            await interaction.followUp(subcommand.ephemeral ? ephemeral(followUp) : followUp);
          }
          await this.#answers.finish(invocation, 'ok');
          // Still this interaction's work: a draining process waits for it (within its grace).
          await answerLater(
            this.#answers,
            invocation,
            interaction,
            { later, followUp },
            {
              ephemeral: subcommand.ephemeral === true,
              shown: (body) => withSandboxNotice(body, sandbox, context.t),
            },
          );
          return;
        }
        case 'change': {
          const approved = async () => subcommand.approvedBy || (await this.#approvals.requires(label));
          if (this.#deps.approvalsHere === false && (await approved()))
            throw approvalNotHere(label, subcommand.approvedBy !== undefined);
          const parsed = subcommand.parse(context);
          if (isModalRequest(parsed)) {
            await this.#forms.open(interaction, invocation, parsed);
          } else {
            await this.#changes.prompt(interaction, invocation, subcommand, parsed);
          }
          return;
        }
      }
    } catch (error) {
      await this.#answers.fail(interaction, invocation, error);
    }
  }

  /** Suggestions, gated like their command (none where it may not run), within Discord's 3 s or not at all. */
  async #autocomplete(interaction: AutocompleteInteraction): Promise<void> {
    const label = commandPath(interaction);
    const subcommand = this.#table.subcommand(label);
    const suggest = subcommand && 'autocomplete' in subcommand ? subcommand.autocomplete : undefined;
    let choices: { name: string; value: string | number }[] = [];
    const invocation = newInvocation(this.#deps.logger, interaction, label, false);
    if (suggest && subcommand && !this.#changes.draining) {
      try {
        const { tier: needed, kind } = subcommand;
        const tier = await this.gate.check(interaction, { label, tier: needed, kind });
        const focused = interaction.options.getFocused(true);
        const context = commandContext(this.#contextDeps, interaction, invocation, tier);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('suggestions took too long')), AUTOCOMPLETE_BUDGET_MS);
        });
        choices = await Promise.race([
          suggest({ ...context, focused: { name: focused.name, value: String(focused.value) } }),
          late,
        ]).finally(() => clearTimeout(timer));
      } catch (error) {
        if (!(error instanceof RefusalError)) invocation.logger.warn({ err: error }, 'no suggestions');
        choices = [];
      }
    }
    await interaction.respond(
      choices.slice(0, 25).map(({ name, value }) => ({ name: cutText(name, 100), value })),
    );
  }
}
