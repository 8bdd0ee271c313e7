import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseCustomId } from '../discord/customId.js';
import type { Translator } from '../i18n/Translator.js';
import { CommandLineError } from './CommandLineError.js';
import type { Sent } from './ConsoleInteraction.js';
import { type ConsoleIo, writeLine } from './ConsoleIo.js';
import type { ConsoleSession } from './ConsoleSession.js';
import { complete } from './complete.js';
import { type ConsoleArgs, EXIT } from './consoleArgs.js';
import { type ConsoleForm, fieldQuestion, formOf, pickChoice } from './consoleForm.js';
import { changeAction, wordsOf } from './consoleWords.js';
import { HistoryFile } from './HistoryFile.js';
import { historyLine } from './historyLine.js';
import { buttonsOf, either, type MessageLike, type RenderOptions, renderMessage } from './renderText.js';

/** Lines the up arrow reaches back, and the history file gives it at start. */
const HISTORY_SIZE = 500;

type Mode =
  | { kind: 'command' }
  | { kind: 'modal'; form: ConsoleForm; index: number; values: Record<string, string>; lines: string[] };

/**
 * The interactive console: a line per command, buttons pressed by typing their label, forms filled line
 * by line. At a terminal it keeps a history (without secrets) and prints what arrives late (an expiry, a
 * read-back) above the prompt.
 */
export async function interactiveSession(
  session: ConsoleSession,
  args: ConsoleArgs,
  io: ConsoleIo,
  render: RenderOptions,
  user: string,
): Promise<number> {
  const { t, config } = session;
  const terminal = Boolean(io.stdin.isTTY && io.stdout.isTTY);
  const mask = (line: string) => historyLine(line, session.commands);
  const historyFile = new HistoryFile(join(io.env.HOME ?? homedir(), '.hostops_console_history'), mask);
  const history = terminal ? historyFile.load(HISTORY_SIZE) : [];
  /** Buttons of the latest answers, pressed by typing their label (or its English word). */
  let buttons: {
    label: string;
    customId: string;
    words: string[];
    message: string;
    ephemeral: boolean;
  }[] = [];
  /** A change prompt is waiting for confirm while its Cancel is among the buttons. */
  const waitingCancel = () => buttons.find((b) => changeAction(b.customId) === 'cancel');
  const rl = createInterface({
    input: io.stdin,
    output: io.stdout,
    terminal,
    history,
    historySize: HISTORY_SIZE,
    completer: (line: string) =>
      complete(
        session.commands,
        line,
        buttons.flatMap((b) => b.words),
      ),
  });
  // Readline hands its own history array to this event: the up-arrow list keeps no secret either.
  rl.on('history', (lines) => {
    const [newest] = lines;
    if (newest === undefined || mode.kind !== 'command') return;
    lines[0] = mask(newest);
  });
  /** While a typed line is handled, the prompt is not shown: its answer's messages print as they come. */
  let handling = false;
  const print = (text: string) => {
    if (!text) return;
    if (terminal && !handling) {
      // Keep the prompt and what was typed below anything that arrives late (an expiry, a read-back).
      io.stdout.write('\r\u001b[K');
      writeLine(io.stdout, text);
      rl.prompt(true);
    } else writeLine(io.stdout, text);
  };
  // Revert goes back to a domain's set: typed as `revert example.com`, which works at any time later too.
  const revertWords = new Map<string, string>();
  const buttonWord = (button: { label: string; customId: string }) =>
    revertWords.get(button.customId) ?? button.label.toLowerCase();
  const learnRevertWords = async (found: readonly { label: string; customId: string }[]) => {
    for (const button of found) {
      const id = parseCustomId(button.customId)?.id;
      if (changeAction(button.customId) !== 'revert' || id === undefined) continue;
      const target = (await session.runtime.store.changes.get(id))?.target;
      if (target) revertWords.set(button.customId, `${button.label.toLowerCase()} ${target}`);
    }
  };
  /** Messages print in the order they were sent, each once what it names is known. */
  let shown: Promise<void> = Promise.resolve();
  session.onSent = (sent, late) => {
    if (sent.kind === 'deferReply' || sent.kind === 'showModal') return;
    const found = buttonsOf(sent.body as MessageLike);
    if (found.length > 0) {
      const message = session.messageKey(sent, 0);
      buttons = found.map((b) => ({ ...b, words: wordsOf(b), message, ephemeral: sent.ephemeral }));
    } else if (sent.kind === 'update' || sent.kind === 'editReply') {
      // The message that had the buttons no longer has them.
      buttons = [];
    }
    shown = shown
      .then(() => learnRevertWords(found))
      .catch(() => undefined)
      .then(() => {
        print(renderMessage(sent.body as MessageLike, { ...render, buttonWord }));
        if (late && !handling) setPrompt();
      });
  };
  const tierLine = t('console.welcome', {
    tier: args.as,
    user,
    api: config.hosting.sandbox ? t('console.welcome.sandbox') : config.hosting.baseUrl,
  });
  writeLine(io.stdout, render.colour ? `\u001b[2m${tierLine}\u001b[0m` : tierLine);
  let mode = { kind: 'command' } as Mode;
  /** A form an answer opened is asked field by field, starting now. */
  const opened = async (exchange: { sent: readonly Sent[] }) => {
    const form = formOf(exchange.sent, t);
    if (!form?.fields[0]) return;
    writeLine(io.stdout, form.title);
    writeLine(io.stdout, fieldQuestion(form.fields[0], t));
    mode = { kind: 'modal', form, index: 0, values: {}, lines: [] };
  };
  const setPrompt = () => {
    rl.setPrompt(
      mode.kind === 'modal'
        ? '… '
        : buttons.length > 0
          ? `hostops(${args.as}) [${buttons.map(buttonWord).join('/')}]> `
          : `hostops(${args.as})> `,
    );
    if (terminal) rl.prompt();
  };
  setPrompt();
  // Ctrl-C at a terminal: a change waiting for confirm is cancelled, and said so, and the session goes on;
  // with nothing waiting it ends the session (exit 130, as for any interrupted program), also said so.
  let interrupted = false;
  rl.on('SIGINT', () => {
    const cancel = waitingCancel();
    if (cancel && mode.kind === 'command') {
      buttons = [];
      io.stdout.write('\n');
      void session
        .press(cancel.customId, cancel.message, cancel.ephemeral)
        .then(
          () => print(t('console.interrupt.cancelled')),
          (error: unknown) => print(error instanceof Error ? error.message : String(error)),
        )
        .finally(setPrompt);
      return;
    }
    interrupted = true;
    io.stdout.write('\n');
    writeLine(io.stdout, t('console.interrupt.quit'));
    rl.close();
  });
  /** `exit`, or the end of input, while a change waits: cancelled (journal, audit) and said so. */
  let cancelledAtExit = false;
  const cancelWaiting = async () => {
    const cancel = mode.kind === 'command' ? waitingCancel() : undefined;
    if (!cancel) return;
    buttons = [];
    await session.press(cancel.customId, cancel.message, cancel.ephemeral);
    await shown;
    writeLine(io.stdout, t('console.exit.cancelled'));
    cancelledAtExit = true;
  };
  for await (const raw of rl) {
    const line = raw.trim();
    handling = true;
    if (terminal && line && mode.kind === 'command') historyFile.append(line);
    try {
      if (mode.kind === 'modal') {
        const form = mode;
        const field = form.form.fields[form.index];
        const next = () => {
          form.lines = [];
          form.index += 1;
          const ask = form.form.fields[form.index];
          if (ask) writeLine(io.stdout, fieldQuestion(ask, t));
        };
        if (!field) mode = { kind: 'command' };
        else if (field.paragraph && line !== '') form.lines.push(raw);
        else if (field.paragraph) {
          form.values[field.id] = form.lines.length > 0 ? form.lines.join('\n') : (field.value ?? '');
          next();
        } else if (field.choices) {
          const picked = line === '' ? field.value : pickChoice(field, line);
          if (picked === undefined) writeLine(io.stdout, t('console.form_choose'));
          else {
            form.values[field.id] = picked;
            next();
          }
        } else {
          form.values[field.id] = line === '' ? (field.value ?? '') : line;
          next();
        }
        if (mode.kind === 'modal' && form.index >= form.form.fields.length) {
          mode = { kind: 'command' };
          const only = form.form.fields.length === 1 ? form.form.fields[0] : undefined;
          // The DNS editor left empty: closed, as before; every other form goes to the bot, which says what is missing.
          if (only?.paragraph && !form.values[only.id]) writeLine(io.stdout, t('console.form_empty'));
          else {
            const exchange = await session.submitModal(form.form.customId, form.values);
            await shown;
            await opened(exchange);
          }
        }
      } else if (line === '') {
        // nothing
      } else if (line === 'exit' || line === 'quit' || line === '/exit' || line === '/quit') {
        await cancelWaiting();
        break;
      } else if (revertLine(line, t) !== undefined) {
        // `revert example.com`: Revert on the domain's last DNS change, as `--revert` does.
        const domain = revertLine(line, t) ?? '';
        const reverted = await session.revertLast(domain);
        await shown;
        if (reverted === undefined) {
          writeLine(io.stdout, t('console.revert.none', { domain }));
        }
      } else if (line.startsWith('/')) {
        const exchange = await session.run(line);
        await shown;
        if (line.replace(/^\/\s*/, '').split(/\s/)[0] === 'help') {
          writeLine(
            io.stdout,
            t('console.help_note', {
              confirm: t('changes.button.confirm').toLowerCase(),
              cancel: t('changes.button.cancel').toLowerCase(),
            }),
          );
        }
        await opened(exchange);
      } else {
        const button = buttons.find((b) => b.words.includes(line.toLowerCase()));
        if (button) {
          buttons = [];
          const exchange = await session.press(button.customId, button.message, button.ephemeral);
          await shown;
          // Edit under an invalid form's answer opens the form again.
          await opened(exchange);
        } else {
          writeLine(
            io.stdout,
            buttons.length > 0
              ? t('console.type_button_or_command', {
                  buttons: either(buttons.map(buttonWord), t),
                })
              : t('console.commands_start'),
          );
        }
      }
    } catch (error) {
      if (!(error instanceof CommandLineError)) throw error;
      writeLine(
        io.stdout,
        error.refused ? t.render(error.text) : t('console.invalid_command', { problem: error.text }),
      );
    }
    handling = false;
    setPrompt();
  }
  // The end of input (Ctrl-D, a script's last line) is an exit too.
  if (!interrupted && !cancelledAtExit) await cancelWaiting();
  rl.close();
  if (interrupted) return EXIT.interrupted;
  return cancelledAtExit ? EXIT.notSent : EXIT.ok;
}

/** The domain of a typed `revert example.com` (or the Revert button's label in the terminal's language). */
function revertLine(line: string, t: Translator): string | undefined {
  const [word, domain, ...rest] = line.split(/\s+/);
  const words = ['revert', t('domain.dns.revert').toLowerCase()];
  if (word === undefined || domain === undefined || rest.length > 0) return undefined;
  return words.includes(word.toLowerCase()) ? domain : undefined;
}
