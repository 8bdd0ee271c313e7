import { writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { CommandOutcome } from '../audit/outcomes.js';
import { promptDescription } from '../discord/changes/renderChange.js';
import type { Translator } from '../i18n/Translator.js';
import { SANDBOX_LABEL } from '../sandbox/sandboxMode.js';
import { promptOf } from './answerControls.js';
import { CommandLineError } from './CommandLineError.js';
import type { Sent } from './ConsoleInteraction.js';
import { type ConsoleIo, writeLine } from './ConsoleIo.js';
import type { ConsoleSession, Exchange } from './ConsoleSession.js';
import { type ConsoleArgs, EXIT } from './consoleArgs.js';
import { formOf, formOptions, takesStdin } from './consoleForm.js';
import { fileText, type MessageLike, type RenderOptions, renderMessage } from './renderText.js';

/** The exit code for how a command ended. */
export function exitFor(outcome: CommandOutcome | undefined): number {
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

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/**
 * One command from the command line (or `--revert DOMAIN`): its answer on stdout (errors on stderr), and
 * an exit code. A form takes its text from stdin; a change is confirmed only with --yes, otherwise its
 * preview is shown and the prompt cancelled.
 */
export async function oneShot(
  session: ConsoleSession,
  args: ConsoleArgs,
  io: ConsoleIo,
  render: RenderOptions,
): Promise<number> {
  const { t } = session;
  let exchange: Exchange | undefined;
  try {
    exchange =
      args.revert === undefined
        ? await session.run(args.command ?? '')
        : await session.revertLast(args.revert);
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    if (error.refused) {
      writeLine(io.stderr, t.render(error.text));
      return EXIT.refused;
    }
    writeLine(io.stderr, t('console.invalid_command', { problem: error.text }));
    return EXIT.invalid;
  }
  if (exchange === undefined) {
    writeLine(io.stderr, t('console.revert.none', { domain: args.revert ?? '' }));
    return EXIT.notSent;
  }
  return answer(session, args, io, render, exchange);
}

/** Follows an answer through its form and its prompt, then prints what it ended as. */
async function answer(
  session: ConsoleSession,
  args: ConsoleArgs,
  io: ConsoleIo,
  render: RenderOptions,
  exchange: Exchange,
): Promise<number> {
  const { t } = session;
  const sent = [...exchange.sent];
  let outcome = exchange.outcome;
  // What --json prints: the last data given (a change's outcome comes after its prompt's).
  let data = exchange.data;
  const modal = formOf(sent, t);
  if (modal) {
    const [field] = modal.fields;
    if (!field || !takesStdin(modal)) {
      const options = formOptions(modal);
      writeLine(io.stderr, t('console.form_needs_options', { title: modal.title, options }));
      return EXIT.invalid;
    }
    if (io.stdin.isTTY) {
      writeLine(io.stderr, t('console.modal_needs_text', { title: modal.title }));
      return EXIT.invalid;
    }
    const submitted = await session.submitModal(modal.customId, {
      [field.id]: (await readAll(io.stdin)).replace(/\n+$/, ''),
    });
    sent.push(...submitted.sent);
    outcome = submitted.outcome;
    data = submitted.data ?? data;
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
      data = confirmed.data ?? data;
      // What the change was made against changed before it went out: the change as it would be now is
      // shown, never confirmed unseen; it is cancelled so it does not linger.
      const renewed = promptOf(confirmed.sent);
      if (renewed) {
        await session.press(renewed.cancel, undefined, renewed.ephemeral);
        notice = t('console.not_sent_outdated');
      }
    } else {
      // The preview only: the prompt is cancelled so it does not linger, and nothing is sent.
      const cancelled = await session.press(prompt.cancel, undefined, prompt.ephemeral);
      data = cancelled.data ?? data;
      notice = t('console.not_sent');
    }
  }
  const final = session
    .finalMessages(sent)
    .map((message) =>
      prompt && !args.yes
        ? { ...message, body: withoutConfirmHint({ ...message.body, components: [] }, session.t) }
        : message,
    );
  // A file written with --out is named on stderr, not printed as well.
  const messages =
    args.out === undefined ? final : final.map((m) => ({ ...m, body: { ...m.body, files: [] } }));
  // A revert with nothing to go back to answered, and sent nothing.
  const nothingSent = args.revert !== undefined && !prompt && outcome === 'ok';
  const code = notice || nothingSent ? EXIT.notSent : exitFor(outcome);
  const failed = code !== EXIT.ok && !notice;
  if (args.json && !failed) {
    // A command that gives no data yet: its messages as plain text.
    const plain = () =>
      messages.map((m) =>
        renderMessage({ ...m.body, components: [] } as MessageLike, { ...render, colour: false }),
      );
    writeLine(io.stdout, JSON.stringify(data ?? { messages: plain() }, null, 2));
    // The data carries no notice of its own: made-up data is said so beside it.
    if (session.config.hosting.sandbox) {
      const notice = t('common.sandbox_notice', { label: SANDBOX_LABEL });
      writeLine(io.stderr, renderMessage({ content: notice }, { ...render, colour: false }));
    }
  } else {
    const text = withOneSandboxNotice(messages, session)
      .map((m) =>
        renderMessage(
          { ...m.body, components: [] } as MessageLike,
          failed ? { ...render, colour: false } : render,
        ),
      )
      .join('\n\n');
    writeLine(failed ? io.stderr : io.stdout, text);
  }
  if (notice) writeLine(io.stderr, notice);
  if (args.out !== undefined && !failed) return writeOut(session, args.out, final, io);
  return code;
}

/**
 * A one-shot without --yes has no Confirm to press: the prompt's "Nothing is sent until you press Confirm.
 * This prompt expires …" paragraph is dropped (stderr says it was not sent and how to send it).
 */
function withoutConfirmHint(body: MessageLike, t: Translator): MessageLike {
  const [before = '', after = ''] = promptDescription(t, '\u0000').split('\u0000');
  const keep = (paragraph: string) => !(paragraph.startsWith(before) && paragraph.endsWith(after));
  return {
    ...body,
    embeds: body.embeds?.map((embed) =>
      embed.description === undefined
        ? embed
        : { ...embed, description: embed.description.split('\n\n').filter(keep).join('\n\n') },
    ),
  };
}

/** A change's answer and its public record each carry the SANDBOX notice; printed together, once is enough. */
function withOneSandboxNotice<M extends { body: MessageLike }>(
  messages: readonly M[],
  session: ConsoleSession,
): M[] {
  if (!session.config.hosting.sandbox) return [...messages];
  const notice = session.t('common.sandbox_notice', { label: SANDBOX_LABEL });
  let seen = false;
  return messages.map((message) => {
    const content = message.body.content ?? '';
    if (!content.startsWith(notice)) return message;
    if (!seen) {
      seen = true;
      return message;
    }
    const rest = content.slice(notice.length).replace(/^\n/, '');
    return { ...message, body: { ...message.body, content: rest === '' ? null : rest } };
  });
}

/** `--out FILE`: the answer's attached file, written as it would be attached. */
async function writeOut(
  session: ConsoleSession,
  path: string,
  messages: readonly { body: MessageLike }[],
  io: ConsoleIo,
): Promise<number> {
  const { t } = session;
  const file = messages.flatMap((m) => m.body.files ?? [])[0];
  const content = file && fileText(file);
  if (!file || content === undefined) {
    writeLine(io.stderr, t('console.out.none', { file: path }));
    return EXIT.invalid;
  }
  await writeFile(path, content);
  writeLine(io.stderr, t('console.out.written', { name: file.name, file: path }));
  return EXIT.ok;
}
