import { type ChangeButton, isChangeButton, parseCustomId } from '../discord/customId.js';
import { type MessageKey, type Translator, translator } from '../i18n/Translator.js';

// The console's words for buttons: what is typed to press one, and how a message that says "press
// **Confirm**" in Discord says it here. The runtime writes for Discord; this adapter translates.

const english = translator('en');

/** The label of each change button, so its English word works in any language (as command names do). */
const LABEL: Record<ChangeButton, MessageKey> = {
  confirm: 'changes.button.confirm',
  cancel: 'changes.button.cancel',
  again: 'changes.button.send_again',
  retry: 'changes.button.try_again',
  approve: 'changes.button.approve',
  reject: 'changes.button.reject',
  revert: 'domain.dns.revert',
};

/** A button's action (`confirm`, `revert`, …) from its custom id, when it is a change's. */
export function changeAction(customId: string): ChangeButton | undefined {
  const action = parseCustomId(customId)?.action;
  return action !== undefined && isChangeButton(action) ? action : undefined;
}

/** What may be typed to press a button: its label, lower case, in the console's language and in English. */
export function wordsOf(button: { label: string; customId: string }): string[] {
  const action = changeAction(button.customId);
  const words = [button.label.toLowerCase()];
  if (action !== undefined) words.push(english(LABEL[action]).toLowerCase());
  return [...new Set(words)];
}

/** Discord's phrases for pressing a button, each with the console's phrase for typing its word. */
const PRESS = [
  ['changes.press', 'console.press'],
  ['changes.press_again', 'console.press_again'],
] as const;

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `press **Confirm**` → `type `confirm`` (in the reader's language `t`), wherever a message says it. */
export function inConsoleWords(text: string, t: Translator): string {
  let out = text;
  for (const [discord, typed] of PRESS) {
    const [before = '', after = ''] = t(discord, { button: '\u0000' }).split('\u0000');
    // A label holds no `*`: the phrase cannot reach back over other bold text.
    const phrase = new RegExp(`${literally(before)}([^*\\n]+?)${literally(after)}`, 'g');
    out = out.replace(phrase, (_whole, label: string) => t(typed, { button: label.toLowerCase() }));
  }
  return out;
}
