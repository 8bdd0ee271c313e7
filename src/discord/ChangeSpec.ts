// What a command module writes for a changing subcommand (a ChangeSpec: how options become parameters, the
// look-up, the preview, the recheck) and `change()`, which makes the ChangeHandler the change flow uses from
// it, with the previews in every language and every secret masked in what the record keeps.
import { masked } from '../changes/masked.js';
import { LOCALES } from '../i18n/locales.js';
import { type Message, type Translator, translator } from '../i18n/Translator.js';
import type { ChangePreview, LocalizedPreview } from '../replies/ReplyBody.js';
import type { ChangeRecord } from '../store/index.js';
import {
  type ChangeBasics,
  type ChangeHandler,
  type CommandContext,
  type FormContext,
  isModalRequest,
  type MemoryContext,
  type ModalRequest,
  type PrepareContext,
  type PreparedChange,
  type Preparing,
} from './CommandModule.js';
import type { OptionNames } from './typedOptions.js';

/**
 * A changing subcommand. A change is data: `parse` turns options into JSON parameters, which are
 * stored, shown (`preview`), confirmed, and only then sent (`send`) — possibly by another process
 * after a restart, so nothing here may depend on anything but the parameters.
 */
export interface ChangeSpec<P extends object, N extends OptionNames = OptionNames> extends ChangeBasics<P> {
  // A method, so a spec typed by its own options still serves where any options are handled.
  parse(context: CommandContext<N>): P | ModalRequest;
  /** The parameters from a form `parse` asked for; throws InvalidOptionError like any option parse. */
  submitForm?: (state: Record<string, unknown>, values: Record<string, string>, context: FormContext) => P;
  /** The domain, server, address or account the change is about (audit trail). */
  target: (parameters: P) => string;
  /** In the language of whoever reads it: the invoker's prompt, or the channel's approval request. */
  preview: (parameters: P, t: Translator) => ChangePreview;
  /**
   * A look-up before the prompt, e.g. whether a host name resolves back to the IP. Returns the
   * parameters with what it found (kept in the record and shown by `preview`; `send` ignores it), or
   * throws a RefusalError; a promise makes the prompt acknowledge first and wait for it.
   */
  precheck?: (parameters: P, context: PrepareContext) => P | Promise<P>;
  /**
   * Made again once the change is confirmed or approved and claimed, right before it is sent: does what
   * the prompt (or the approval request) showed, and the send relies on, still hold? Undefined: it does.
   * The parameters made anew against what holds now, and `why`: nothing is sent, and the change is
   * offered again as a new prompt (or an updated approval request). A RefusalError: nothing is sent.
   * Such changes are sent one at a time per target, so this sees every change of the target sent before.
   */
  recheck?: (parameters: P, context: PrepareContext) => Promise<Outdated<P> | undefined>;
  /**
   * The parameters of a change that undoes this sent one (the public record's Revert button), or
   * undefined when there is nothing to go back to.
   */
  revert?: (record: ChangeRecord, context: MemoryContext) => Promise<P | undefined>;
}

/** A change whose prompt no longer holds (`recheck`): the same change made against what holds now. */
export interface Outdated<P> {
  parameters: P;
  /** Why nothing was sent, naming what changed (and what the change would now do): shown above the new prompt. */
  why: Message;
}

/**
 * A change from its spec: the look-up, the target and the previews are made at once, in one step, so the
 * flow asks the command only to make a change and to send it. Options as for `read`.
 */
export function change<P extends object, N extends OptionNames = OptionNames>(
  spec: ChangeSpec<P, N>,
): ChangeHandler<P, N> {
  const { parse, submitForm, precheck, recheck, target, preview, revert, ...rest } = spec;
  const made = (parameters: P, t: Translator): PreparedChange<P> => {
    const shown = preview(parameters, t);
    const hidden = masked(spec, parameters) as P;
    const recorded = Object.fromEntries(
      LOCALES.map((locale) => [
        locale,
        !spec.secrets?.length && locale === t.locale ? shown : preview(hidden, translator(locale)),
      ]),
    ) as LocalizedPreview;
    return { parameters, target: target(parameters), preview: shown, recorded };
  };
  const prepare = (parameters: P, context: PrepareContext): Preparing<P> => {
    const checked = precheck?.(parameters, context) ?? parameters;
    return checked instanceof Promise
      ? checked.then((found) => made(found, context.t))
      : made(checked, context.t);
  };
  return {
    kind: 'change',
    ...rest,
    parse(context) {
      const parsed = parse(context);
      return isModalRequest(parsed) ? parsed : prepare(parsed, context);
    },
    ...(submitForm && {
      submitForm: (state, values, context) => prepare(submitForm(state, values, context), context),
    }),
    again: prepare,
    ...(revert && {
      revert: async (record, context) => {
        const parameters = await revert(record, context);
        return parameters === undefined ? undefined : prepare(parameters, context);
      },
    }),
    ...(recheck && {
      recheck: async (parameters, context) => {
        const outdated = await recheck(parameters, context);
        return outdated && { made: made(outdated.parameters, context.t), why: outdated.why };
      },
    }),
  };
}
