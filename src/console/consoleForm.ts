import type { Translator } from '../i18n/Translator.js';
import type { Sent } from './ConsoleInteraction.js';

// A form (modal) in the terminal: asked field by field, as Discord draws it (every input in a Label).

export interface ConsoleFormField {
  id: string;
  label: string;
  description?: string;
  /** Several lines, ended by an empty line. */
  paragraph: boolean;
  placeholder?: string;
  /** Prefilled (an option given, a default, or what was typed before Edit). */
  value?: string;
  /** A choice: its options, picked by number, value or label. */
  choices?: { label: string; value: string }[];
}

export interface ConsoleForm {
  customId: string;
  title: string;
  fields: ConsoleFormField[];
}

interface LabelBody {
  label?: string;
  description?: string;
  component?: {
    custom_id?: string;
    style?: number;
    placeholder?: string;
    value?: string;
    options?: { label: string; value: string; default?: boolean }[];
  };
}

/** The form an answer opened, if it opened one. */
export function formOf(sent: readonly Sent[], t: Translator): ConsoleForm | undefined {
  const shown = sent.find((item) => item.kind === 'showModal');
  if (!shown) return undefined;
  const body = shown.body as { custom_id?: string; title?: string; components?: LabelBody[] };
  return {
    customId: body.custom_id ?? '',
    title: body.title ?? t('console.form'),
    fields: (body.components ?? []).map(({ label, description, component }) => {
      const chosen = component?.options?.find((option) => option.default)?.value;
      const value = component?.value ?? chosen;
      return {
        id: component?.custom_id ?? '',
        label: label ?? '',
        paragraph: component?.style === 2,
        ...(description ? { description } : {}),
        ...(component?.placeholder ? { placeholder: component.placeholder } : {}),
        ...(value === undefined ? {} : { value }),
        ...(component?.options
          ? { choices: component.options.map((option) => ({ label: option.label, value: option.value })) }
          : {}),
      };
    }),
  };
}

/** Only the DNS editor's kind of form (one text of several lines) can come from stdin in a one-shot. */
export function takesStdin(form: ConsoleForm): boolean {
  return form.fields.length === 1 && form.fields[0]?.paragraph === true && !form.fields[0].choices;
}

/** The options a one-shot gives instead of a form: its fields stand for them (`username`, `email`, …). */
export function formOptions(form: ConsoleForm): string {
  return form.fields.map((field) => field.id).join(', ');
}

/** What the terminal asks for one field: its label, description, choices and what it holds now. */
export function fieldQuestion(field: ConsoleFormField, t: Translator): string {
  const lines = [field.description ? `${field.label} — ${field.description}` : field.label];
  if (field.choices) {
    lines.push(...field.choices.map((choice, index) => `  ${index + 1}) ${choice.label}`));
  } else if (field.placeholder && !field.value) {
    lines.push(t('console.form_example', { example: field.placeholder }));
  }
  const shown = field.choices?.find((choice) => choice.value === field.value)?.label ?? field.value;
  if (shown) lines.push(t('console.form_keep', { value: shown }));
  lines.push(t(field.paragraph ? 'console.form_lines' : 'console.form_line'));
  return lines.join('\n');
}

/** The value of a choice typed as its number, value or label; undefined when it is none of them. */
export function pickChoice(field: ConsoleFormField, typed: string): string | undefined {
  const choices = field.choices ?? [];
  const number = /^\d+$/.test(typed) ? choices[Number(typed) - 1] : undefined;
  const lower = typed.toLowerCase();
  return (
    number ??
    choices.find((choice) => choice.value === typed) ??
    choices.find((choice) => choice.label.toLowerCase() === lower)
  )?.value;
}
