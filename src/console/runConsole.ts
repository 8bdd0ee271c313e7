import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { homedir, hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { commands as allCommands } from '../../commands/index.js';
import { type Config, ConfigError } from '../config.js';
import type { RouterObserver } from '../discord/Answers.js';
import type { BotMessages } from '../discord/ChangeFlow.js';
import type { CommandModule } from '../discord/CommandModule.js';
import type { CommandOutcome } from '../discord/describeError.js';
import { InteractionRouter } from '../discord/InteractionRouter.js';
import { generatePassword } from '../generatePassword.js';
import { HostingClient } from '../hosting/HostingClient.js';
import type { Locale } from '../i18n/locales.js';
import { message, type Translator, translator } from '../i18n/Translator.js';
import { createLogger, type Logger } from '../logger.js';
import { openHostingEndpoint } from '../sandbox/hostingEndpoint.js';
import { openStore, Presence, redactDatabaseUrl, StoreOpenError } from '../store/index.js';
import {
  buttonInteraction,
  type ConsoleActor,
  chatInputInteraction,
  modalSubmitInteraction,
  type Sent,
  snowflake,
} from './ConsoleInteraction.js';
import {
  CONSOLE_CHANNEL_ID,
  CONSOLE_GUILD_ID,
  CONSOLE_ROLE_IDS,
  CONSOLE_TIERS,
  type ConsoleTier,
  consoleConfig,
  consoleLocale,
  consoleUserId,
} from './consoleConfig.js';
import { historyLine } from './historyLine.js';
import { CommandLineError, nestedOptions, parseCommandLine, valueOptions } from './parseCommandLine.js';
import {
  buttonsOf,
  either,
  fileText,
  type MessageLike,
  type RenderOptions,
  renderMessage,
  supportsColour,
} from './renderText.js';

/** Exit codes of a one-shot command. */
export const EXIT = {
  ok: 0,
  /** API error, unknown outcome, unexpected error. */
  failed: 1,
  /** Bad command line or invalid option value. */
  invalid: 2,
  /** Refused by a gate (tier). */
  refused: 3,
  /** A change that was not sent: no --yes, cancelled or expired. */
  notSent: 4,
  /** Invalid configuration, as for the bot. */
  config: 78,
} as const;

export interface ConsoleIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; hasColors?: () => boolean };
  stderr: Writable & { isTTY?: boolean; hasColors?: () => boolean };
  env: Record<string, string | undefined>;
}

export interface ConsoleArgs {
  as: ConsoleTier;
  yes: boolean;
  json: boolean;
  verbose: boolean;
  help: boolean;
  noColour: boolean;
  /** One-shot: the command to run; interactive when absent. */
  command: string | undefined;
}

/** Throws CommandLineError for an unknown flag or tier. */
export function parseArgs(argv: readonly string[]): ConsoleArgs {
  const args: ConsoleArgs = {
    as: 'viewer',
    yes: false,
    json: false,
    verbose: false,
    help: false,
    noColour: false,
    command: undefined,
  };
  const words: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (arg === '--as' || arg.startsWith('--as=')) {
      const value = arg === '--as' ? argv[++index] : arg.slice('--as='.length);
      if (!CONSOLE_TIERS.includes(value as ConsoleTier)) {
        throw new CommandLineError(message('console.args.as', { tiers: CONSOLE_TIERS.join(', ') }));
      }
      args.as = value as ConsoleTier;
    } else if (arg === '--yes' || arg === '-y') args.yes = true;
    else if (arg === '--json') args.json = true;
    else if (arg === '--verbose' || arg === '-v') args.verbose = true;
    else if (arg === '--no-color' || arg === '--no-colour') args.noColour = true;
    else if (arg === '--help' || arg === '-h') args.help = true;
    else if (arg === '--') continue;
    else if (arg.startsWith('--')) {
      throw new CommandLineError(
        message('console.args.unknown_flag', { flag: arg, usage: message('console.usage') }),
      );
    }
    // Words the shell split: put quotes back around those that held spaces.
    else words.push(words.length > 0 && /\s/.test(arg) && !/["']/.test(arg) ? quoteWord(arg) : arg);
  }
  if (words.length > 0) args.command = words.join(' ');
  return args;
}

function quoteWord(word: string): string {
  const named = /^([a-z_]+):(.*)$/s.exec(word);
  return named ? `${named[1]}:"${named[2]}"` : `"${word}"`;
}

function osUserName(env: Record<string, string | undefined>): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? 'unknown';
  }
}

/** One exchange with the router: what it sent back, and how the command ended (if it did). */
interface Exchange {
  sent: Sent[];
  outcome: CommandOutcome | undefined;
}

/** A message as it ends up: replies edited in place, follow-ups as messages of their own. */
interface FinalMessage {
  key: string;
  body: Record<string, unknown>;
}

/**
 * A console session: the bot's router, command modules, journal and store, with a terminal where
 * Discord would be. Every line becomes an interaction object handed to the router.
 */
export class ConsoleSession {
  readonly router: InteractionRouter;
  readonly actor: ConsoleActor;
  readonly commands: readonly CommandModule[];
  readonly config: Config;
  /** The terminal's language: what the console user's "client" speaks. */
  readonly t: Translator;
  #current: Exchange | undefined;
  /** Called for every response, as it is sent (interactive mode prints it). */
  onSent: ((sent: Sent, late: boolean) => void) | undefined;
  /** The message each interaction's replies edit (a button edits the message it is on). */
  readonly #messageOf = new Map<string, string>();
  #close: () => Promise<void>;

  private constructor(
    router: InteractionRouter,
    actor: ConsoleActor,
    config: Config,
    commands: readonly CommandModule[],
    close: () => Promise<void>,
  ) {
    this.router = router;
    this.actor = actor;
    this.config = config;
    this.commands = commands;
    this.t = translator(actor.locale);
    this.#close = close;
  }

  static async open(options: {
    config: Config;
    tier: ConsoleTier;
    logger: Logger;
    secrets: ReturnType<typeof createLogger>['secrets'];
    osUser: string;
    commands?: readonly CommandModule[];
    messages?: BotMessages;
    /** The terminal's language (default English). */
    locale?: Locale;
  }): Promise<ConsoleSession> {
    const { config, logger, secrets } = options;
    const store = await openStore(config.databaseUrl, { logger });
    const replicaId = `console:${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    let presence: Presence;
    try {
      presence = await Presence.start(
        store,
        replicaId,
        logger,
        redactDatabaseUrl(config.databaseUrl),
        'console',
      );
    } catch (error) {
      await store.close();
      throw error;
    }
    const endpoint = await openHostingEndpoint(config.hosting);
    if (endpoint.sandbox) secrets.add(endpoint.token);
    const hosting = new HostingClient({
      ...config.hosting,
      baseUrl: endpoint.baseUrl,
      token: endpoint.token,
      logger,
    });
    let session: ConsoleSession | undefined;
    const observer: RouterObserver = {
      acknowledged: () => {},
      finished: (_command, outcome) => session?.noteOutcome(outcome),
    };
    const commands = options.commands ?? allCommands;
    const router = new InteractionRouter({
      commands,
      hosting,
      store,
      replicaId,
      liveReplicas: () => presence.live(),
      // Two-person approval is given in Discord: the router refuses such changes here, and audits it.
      approvalsHere: false,
      messages: options.messages ?? { post: async () => snowflake(), edit: async () => {} },
      config,
      logger,
      secrets,
      generatePassword,
      observer,
    });
    const actor: ConsoleActor = {
      userId: consoleUserId(options.osUser),
      username: `console:${options.osUser}`,
      roleIds: [CONSOLE_ROLE_IDS[options.tier]],
      guildId: CONSOLE_GUILD_ID,
      channelId: CONSOLE_CHANNEL_ID,
      locale: options.locale ?? 'en',
    };
    session = new ConsoleSession(router, actor, config, commands, async () => {
      await router.drain(5_000);
      await presence.stop();
      await hosting.close();
      await endpoint.close();
      await store.close();
    });
    // The sweep of prompts left by earlier runs goes first, so its endings are not taken for ours.
    while (router.inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    return session;
  }

  #listener = (sent: Sent) => {
    const active = this.#active.has(sent.interactionId);
    if (active) this.#current?.sent.push(sent);
    this.onSent?.(sent, !active);
  };
  readonly #active = new Set<string>();

  /** How the command in progress ended (from the router's observer). */
  noteOutcome(outcome: CommandOutcome): void {
    if (this.#current) this.#current.outcome = outcome;
  }

  async #dispatch(interaction: ReturnType<typeof chatInputInteraction>, message?: string): Promise<Exchange> {
    const exchange: Exchange = { sent: [], outcome: undefined };
    this.#current = exchange;
    this.#active.add(interaction.id);
    this.#messageOf.set(interaction.id, message ?? `${interaction.id}:original`);
    try {
      await this.router.handle(interaction);
    } finally {
      this.#active.delete(interaction.id);
      if (this.#current === exchange) this.#current = undefined;
    }
    return exchange;
  }

  /** Runs a parsed slash command. Throws CommandLineError for what cannot be parsed. */
  run(line: string): Promise<Exchange> {
    const parsed = parseCommandLine(
      line,
      this.commands.map((c) => c.definition),
      this.actor.locale,
    );
    return this.#dispatch(chatInputInteraction(this.actor, this.#listener, parsed));
  }

  /**
   * Presses a button of an earlier answer; its updates edit the message it was on. `ephemeral`: whether
   * that message was only the invoker's (a change prompt is).
   */
  press(customId: string, onMessage?: string, ephemeral = true): Promise<Exchange> {
    return this.#dispatch(buttonInteraction(this.actor, this.#listener, customId, ephemeral), onMessage);
  }

  submitModal(customId: string, text: string): Promise<Exchange> {
    return this.#dispatch(modalSubmitInteraction(this.actor, this.#listener, customId, { text }));
  }

  /** The message a response shows in: replies and edits share one, follow-ups are new. */
  messageKey(sent: Sent, index: number): string {
    if (sent.kind === 'followUp') return `${sent.interactionId}:followup:${index}`;
    return this.#messageOf.get(sent.interactionId) ?? `${sent.interactionId}:original`;
  }

  /** Each message in its last state, in the order they first appeared. */
  finalMessages(sent: readonly Sent[]): FinalMessage[] {
    const messages = new Map<string, FinalMessage>();
    sent.forEach((item, index) => {
      if (item.kind === 'deferReply' || item.kind === 'respond' || item.kind === 'showModal') return;
      const key = this.messageKey(item, index);
      const existing = messages.get(key);
      if (existing) existing.body = item.body;
      else messages.set(key, { key, body: item.body });
    });
    return [...messages.values()];
  }

  close(): Promise<void> {
    return this.#close();
  }
}

/** The message's data for --json: text, embeds and files, without Discord's plumbing. */
export function messageData(body: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (typeof body.content === 'string' && body.content !== '') data.content = body.content;
  if (Array.isArray(body.embeds) && body.embeds.length > 0) data.embeds = body.embeds;
  if (Array.isArray(body.files) && body.files.length > 0) {
    data.files = (body.files as { name: string; attachment?: unknown; content?: string }[]).map((file) => ({
      name: file.name,
      content: fileText(file),
    }));
  }
  const buttons = buttonsOf(body as MessageLike);
  if (buttons.length > 0) data.buttons = buttons.map((b) => b.label);
  return data;
}

function exitFor(outcome: CommandOutcome | undefined): number {
  switch (outcome) {
    case 'ok':
      return EXIT.ok;
    case 'invalid':
      return EXIT.invalid;
    case 'refused':
      return EXIT.refused;
    case 'cancelled':
    case 'expired':
    case undefined:
      return EXIT.notSent;
    default:
      return EXIT.failed;
  }
}

const CONFIRM = /^hostops:confirm:(.+)$/;
const CANCEL = /^hostops:cancel:(.+)$/;

function promptOf(
  sent: readonly Sent[],
): { confirm: string; cancel: string; ephemeral: boolean } | undefined {
  for (const item of [...sent].reverse()) {
    const buttons = buttonsOf(item.body as MessageLike);
    const confirm = buttons.find((b) => CONFIRM.test(b.customId));
    const cancel = buttons.find((b) => CANCEL.test(b.customId));
    if (confirm && cancel) {
      return { confirm: confirm.customId, cancel: cancel.customId, ephemeral: item.ephemeral };
    }
  }
  return undefined;
}

function modalOf(
  sent: readonly Sent[],
  t: Translator,
): { customId: string; title: string; label: string } | undefined {
  const shown = sent.find((item) => item.kind === 'showModal');
  if (!shown) return undefined;
  const body = shown.body as {
    custom_id?: string;
    title?: string;
    components?: { components?: { label?: string; placeholder?: string }[] }[];
  };
  const input = body.components?.[0]?.components?.[0];
  return {
    customId: body.custom_id ?? '',
    title: body.title ?? t('console.form'),
    label: [
      input?.label,
      input?.placeholder ? t('console.form_example', { example: input.placeholder }) : undefined,
    ]
      .filter(Boolean)
      .join('\n'),
  };
}

/** Entry point: parses the arguments and configuration, then runs one command or a session. */
export async function runConsole(argv: readonly string[], io: ConsoleIo): Promise<number> {
  const write = (stream: Writable, text: string) => {
    if (text) stream.write(text.endsWith('\n') ? text : `${text}\n`);
  };
  // LC_ALL, LC_MESSAGES or LANG: the language of everything the console shows (BOT_LOCALE aside).
  const locale = consoleLocale(io.env);
  const t = translator(locale);
  let args: ConsoleArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    const problem = error instanceof CommandLineError ? t.render(error.text) : (error as Error).message;
    write(io.stderr, t('console.failed', { problem }));
    return EXIT.invalid;
  }
  if (args.help) {
    write(io.stdout, t('console.usage'));
    return EXIT.ok;
  }
  if (existsSync('.env')) {
    // Like the bot: the environment wins over .env.
    for (const [name, value] of Object.entries(parseEnvFile(readFileSync('.env', 'utf8')))) {
      if (io.env[name] === undefined) io.env[name] = value;
    }
  }
  let config: Config;
  try {
    config = consoleConfig(io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    write(
      io.stderr,
      t('console.config_invalid', { problems: error.problems.map((p) => `  ${p}`).join('\n') }),
    );
    return EXIT.config;
  }
  const { logger, secrets } = createLogger({
    level: args.verbose ? 'debug' : 'error',
    secrets: [config.hosting.token],
    destination: io.stderr as unknown as Parameters<typeof createLogger>[0]['destination'],
  });
  const osUser = osUserName(io.env);
  const interactive = args.command === undefined;
  const colour = !args.noColour && !args.json && supportsColour(io.stdout, io.env);
  const render: RenderOptions = {
    colour,
    t,
    names: {
      users: { [consoleUserId(osUser)]: `console:${osUser}` },
      roles: Object.fromEntries(Object.entries(CONSOLE_ROLE_IDS).map(([tier, id]) => [id, tier])),
      channels: { [CONSOLE_CHANNEL_ID]: 'console' },
    },
  };
  const printMessages: BotMessages = {
    post: async (_channel, body) => {
      write(io.stdout, renderMessage(body as MessageLike, render));
      return snowflake();
    },
    edit: async (_channel, _message, body) => {
      write(io.stdout, renderMessage(body as MessageLike, render));
    },
  };
  let session: ConsoleSession;
  try {
    session = await ConsoleSession.open({
      config,
      tier: args.as,
      logger,
      secrets,
      osUser,
      messages: printMessages,
      locale,
    });
  } catch (error) {
    if (error instanceof StoreOpenError) {
      write(io.stderr, t('console.cannot_start', { problem: error.message }));
      return EXIT.failed;
    }
    throw error;
  }
  try {
    if (!interactive) return await oneShot(session, args, io, render, write);
    return await interactiveSession(session, args, io, render, write, config);
  } finally {
    await session.close();
    logger.flush();
  }
}

/** `.env` lines as the bot reads them (process.loadEnvFile would write into process.env itself). */
function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    let value = match[2] ?? '';
    const quoted = /^(['"])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2] ?? '';
    else value = value.replace(/\s+#.*$/, '');
    values[match[1] ?? ''] = value;
  }
  return values;
}

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

async function oneShot(
  session: ConsoleSession,
  args: ConsoleArgs,
  io: ConsoleIo,
  render: RenderOptions,
  write: (stream: Writable, text: string) => void,
): Promise<number> {
  const { t } = session;
  let exchange: Exchange;
  try {
    exchange = await session.run(args.command ?? '');
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    if (error.refused) {
      write(io.stderr, t.render(error.text));
      return EXIT.refused;
    }
    write(io.stderr, t('console.invalid_command', { problem: error.text }));
    return EXIT.invalid;
  }
  const sent = [...exchange.sent];
  let outcome = exchange.outcome;
  const modal = modalOf(sent, t);
  if (modal) {
    if (io.stdin.isTTY) {
      write(io.stderr, t('console.modal_needs_text', { title: modal.title }));
      return EXIT.invalid;
    }
    const submitted = await session.submitModal(
      modal.customId,
      (await readAll(io.stdin)).replace(/\n+$/, ''),
    );
    sent.push(...submitted.sent);
    outcome = submitted.outcome;
  }
  const prompt = promptOf(sent);
  let notice: string | undefined;
  if (prompt && outcome === undefined) {
    if (args.yes) {
      const confirmed = await session.press(
        prompt.confirm,
        session.messageKey(sent.at(-1) as Sent, 0),
        prompt.ephemeral,
      );
      sent.push(...confirmed.sent);
      outcome = confirmed.outcome;
    } else {
      // The preview only: the prompt is cancelled so it does not linger, and nothing is sent.
      await session.press(prompt.cancel, undefined, prompt.ephemeral);
      notice = t('console.not_sent');
    }
  }
  const messages = session
    .finalMessages(sent)
    .map((message) =>
      prompt && !args.yes ? { ...message, body: { ...message.body, components: [] } } : message,
    );
  const code = notice ? EXIT.notSent : exitFor(outcome);
  const failed = code !== EXIT.ok && !notice;
  if (args.json && !failed) {
    write(
      io.stdout,
      JSON.stringify(
        messages.map((m) => messageData(m.body)),
        null,
        2,
      ),
    );
  } else {
    const text = messages
      .map((m) =>
        renderMessage(
          { ...m.body, components: [] } as MessageLike,
          failed ? { ...render, colour: false } : render,
        ),
      )
      .join('\n\n');
    write(failed ? io.stderr : io.stdout, text);
  }
  if (notice) write(io.stderr, notice);
  return code;
}

type Mode = { kind: 'command' } | { kind: 'modal'; customId: string; lines: string[] };

async function interactiveSession(
  session: ConsoleSession,
  args: ConsoleArgs,
  io: ConsoleIo,
  render: RenderOptions,
  write: (stream: Writable, text: string) => void,
  config: Config,
): Promise<number> {
  const { t } = session;
  const terminal = Boolean(io.stdin.isTTY && io.stdout.isTTY);
  const historyFile = join(io.env.HOME ?? homedir(), '.hostops_console_history');
  const history =
    terminal && existsSync(historyFile)
      ? readFileSync(historyFile, 'utf8').split('\n').filter(Boolean).reverse().slice(0, 500)
      : [];
  /** Buttons of the latest answers, pressed by typing their label. */
  let buttons: { label: string; customId: string; message: string; ephemeral: boolean }[] = [];
  const rl = createInterface({
    input: io.stdin,
    output: io.stdout,
    terminal,
    history,
    historySize: 500,
    completer: (line: string) =>
      complete(
        session.commands,
        line,
        buttons.map((b) => b.label.toLowerCase()),
      ),
  });
  // Readline hands its own history array to this event: the up-arrow list keeps no secret either.
  rl.on('history', (lines) => {
    const [newest] = lines;
    if (newest === undefined || mode.kind !== 'command') return;
    const kept = historyLine(newest, session.commands, session.actor.locale);
    if (kept === undefined) lines.shift();
    else lines[0] = kept;
  });
  const print = (text: string) => {
    if (!text) return;
    if (terminal) {
      // Keep the prompt and what was typed below anything that arrives late (an expiry, a read-back).
      io.stdout.write('\r\u001b[K');
      write(io.stdout, text);
      rl.prompt(true);
    } else write(io.stdout, text);
  };
  session.onSent = (sent, late) => {
    if (sent.kind === 'deferReply' || sent.kind === 'respond' || sent.kind === 'showModal') return;
    const found = buttonsOf(sent.body as MessageLike);
    if (found.length > 0) {
      const message = session.messageKey(sent, 0);
      buttons = found.map((b) => ({ ...b, message, ephemeral: sent.ephemeral }));
    } else if (sent.kind === 'update' || sent.kind === 'editReply') {
      // The message that had the buttons no longer has them.
      buttons = [];
    }
    print(renderMessage(sent.body as MessageLike, render));
    if (late) setPrompt();
  };
  const tierLine = t('console.welcome', {
    tier: args.as,
    user: `console:${osUserName(io.env)}`,
    api: config.hosting.sandbox ? t('console.welcome.sandbox') : config.hosting.baseUrl,
  });
  write(io.stdout, render.colour ? `\u001b[2m${tierLine}\u001b[0m` : tierLine);
  let mode: Mode = { kind: 'command' };
  const setPrompt = () => {
    rl.setPrompt(
      mode.kind === 'modal'
        ? '… '
        : buttons.length > 0
          ? `hostops(${args.as}) [${buttons.map((b) => b.label.toLowerCase()).join('/')}]> `
          : `hostops(${args.as})> `,
    );
    if (terminal) rl.prompt();
  };
  setPrompt();
  for await (const raw of rl) {
    const line = raw.trim();
    if (terminal && line && mode.kind === 'command') {
      const kept = historyLine(line, session.commands, session.actor.locale);
      if (kept !== undefined) void appendFile(historyFile, `${kept}\n`).catch(() => {});
    }
    try {
      if (mode.kind === 'modal') {
        if (line === '') {
          const { customId, lines } = mode;
          mode = { kind: 'command' };
          if (lines.length === 0) write(io.stdout, t('console.form_empty'));
          else await session.submitModal(customId, lines.join('\n'));
        } else mode.lines.push(raw);
      } else if (line === '') {
        // nothing
      } else if (line === 'exit' || line === 'quit' || line === '/exit' || line === '/quit') {
        break;
      } else if (line.startsWith('/')) {
        const exchange = await session.run(line);
        if (line.replace(/^\/\s*/, '').split(/\s/)[0] === 'help') {
          write(
            io.stdout,
            t('console.help_note', {
              confirm: t('changes.button.confirm').toLowerCase(),
              cancel: t('changes.button.cancel').toLowerCase(),
            }),
          );
        }
        const modal = modalOf(exchange.sent, t);
        if (modal) {
          write(io.stdout, t('console.form_prompt', { title: modal.title, label: modal.label }));
          mode = { kind: 'modal', customId: modal.customId, lines: [] };
        }
      } else {
        const button = buttons.find((b) => b.label.toLowerCase() === line.toLowerCase());
        if (button) {
          buttons = [];
          await session.press(button.customId, button.message, button.ephemeral);
        } else {
          write(
            io.stdout,
            buttons.length > 0
              ? t('console.type_button_or_command', {
                  buttons: either(
                    buttons.map((b) => b.label.toLowerCase()),
                    t,
                  ),
                })
              : t('console.commands_start'),
          );
        }
      }
    } catch (error) {
      if (!(error instanceof CommandLineError)) throw error;
      write(
        io.stdout,
        error.refused ? t.render(error.text) : t('console.invalid_command', { problem: error.text }),
      );
    }
    setPrompt();
  }
  rl.close();
  return EXIT.ok;
}

/** Tab completion: command names, then subcommand names, then option names (`name:`). */
export function complete(
  commands: readonly CommandModule[],
  line: string,
  extra: readonly string[] = [],
): [string[], string] {
  const words = line.split(/\s+/);
  const last = words.at(-1) ?? '';
  if (words.length <= 1) {
    const all = [...commands.map((c) => `/${c.definition.name}`), ...extra, 'exit'];
    const hits = all.filter((c) => c.startsWith(last));
    return [hits.length > 0 ? hits : all, last];
  }
  const definition = commands.find((c) => c.definition.name === words[0]?.replace(/^\//, ''))?.definition;
  if (!definition) return [[], last];
  let options = definition.options as Parameters<typeof nestedOptions>[0];
  let index = 1;
  for (;;) {
    const nested = nestedOptions(options);
    if (nested.length === 0) break;
    if (index === words.length - 1) {
      const hits = nested.map((o) => o.name).filter((name) => name.startsWith(last));
      return [hits.map((h) => `${h} `), last];
    }
    const found = nested.find((o) => o.name === words[index]);
    if (!found) return [[], last];
    options = found.options;
    index++;
  }
  if (last.includes(':')) return [[], last];
  const used = new Set(words.slice(index, -1).map((w) => w.split(':')[0]));
  const names = valueOptions(options)
    .map((o) => `${o.name}:`)
    .filter((name) => !used.has(name.slice(0, -1)) && name.startsWith(last));
  return [names, last];
}
