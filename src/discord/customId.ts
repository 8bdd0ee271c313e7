/**
 * The one home of HostOps' custom ids: `hostops:<action>:<id or args>` on every button and modal. The
 * router reads them with `parseCustomId`; everything that makes one calls `customId`.
 */
const PATTERN = /^hostops:([a-z]+):(.*)$/s;

/** The buttons of a change (prompt, approval request, outcome), by their action: each has one handler. */
export const CHANGE_BUTTONS = ['confirm', 'cancel', 'again', 'retry', 'approve', 'reject', 'revert'] as const;
export type ChangeButton = (typeof CHANGE_BUTTONS)[number];

/** A form's actions: its submit (the modal's own id), and Edit under the answer to an invalid submit. */
export const FORM_ACTIONS = { submit: 'modal', edit: 'edit' } as const;
export type FormAction = (typeof FORM_ACTIONS)[keyof typeof FORM_ACTIONS];

export function isChangeButton(action: string): action is ChangeButton {
  return (CHANGE_BUTTONS as readonly string[]).includes(action);
}

export function customId(action: string, id: string): string {
  return `hostops:${action}:${id}`;
}

export function parseCustomId(value: string): { action: string; id: string } | undefined {
  const match = PATTERN.exec(value);
  return match ? { action: match[1] ?? '', id: match[2] ?? '' } : undefined;
}
