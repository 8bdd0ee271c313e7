import { parseCustomId } from '../discord/customId.js';
import type { Translator } from '../i18n/Translator.js';
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

/** The form (modal) an answer opened: its custom id, title, and what its one text input asks for. */
export function modalOf(
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
