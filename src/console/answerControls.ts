import { parseCustomId } from '../discord/customId.js';
import type { Sent } from './ConsoleInteraction.js';
import { buttonsOf, type MessageLike } from './renderText.js';

/** The change prompt among what an answer sent: its Confirm and Cancel, and whether only the invoker saw it. */
export function promptOf(
  sent: readonly Sent[],
): { confirm: string; cancel: string; ephemeral: boolean } | undefined {
  const action = (customId: string) => parseCustomId(customId)?.action;
  for (const item of [...sent].reverse()) {
    const buttons = buttonsOf(item.body as MessageLike);
    const confirm = buttons.find((b) => action(b.customId) === 'confirm');
    const cancel = buttons.find((b) => action(b.customId) === 'cancel');
    if (confirm && cancel) {
      return { confirm: confirm.customId, cancel: cancel.customId, ephemeral: item.ephemeral };
    }
  }
  return undefined;
}
