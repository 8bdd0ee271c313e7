import {
  type APIComponentInLabel,
  type APILabelComponent,
  type APIModalInteractionResponseCallbackData,
  ComponentType,
  TextInputStyle,
} from 'discord.js';
import { message } from '../i18n/Translator.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import { InvalidOptionError } from '../replies/UserError.js';
import { cutText } from '../text/cutText.js';
import type { FormField, ModalRequest } from './CommandModule.js';

/** Discord's limits of a modal: top-level components, title and label lengths. */
export const MODAL_LIMITS = { components: 5, title: 45, label: 45, description: 100, choices: 25 } as const;
/** A radio group holds 2 to 10 options; other choices are drawn as a select menu. */
const RADIO = { min: 2, max: 10 } as const;

function input(field: FormField, value: string | undefined): APIComponentInLabel {
  if (field.kind === 'text') {
    const shown = value ?? field.value;
    return {
      type: ComponentType.TextInput,
      custom_id: field.id,
      style: field.paragraph ? TextInputStyle.Paragraph : TextInputStyle.Short,
      required: field.required ?? true,
      max_length: field.maxLength,
      ...(field.placeholder ? { placeholder: cutText(field.placeholder, 100) } : {}),
      // Discord refuses a value longer than the input takes.
      ...(shown ? { value: shown.slice(0, field.maxLength) } : {}),
    };
  }
  const chosen = value ?? field.value;
  const options = field.choices.slice(0, MODAL_LIMITS.choices).map((choice) => ({
    label: cutText(choice.label, 100),
    value: choice.value,
    ...(choice.value === chosen ? { default: true } : {}),
  }));
  return options.length >= RADIO.min && options.length <= RADIO.max
    ? { type: ComponentType.RadioGroup, custom_id: field.id, required: true, options }
    : {
        type: ComponentType.StringSelect,
        custom_id: field.id,
        required: true,
        min_values: 1,
        max_values: 1,
        options,
      };
}

/**
 * A form as Discord draws modals since 2025: every input in a Label with its text and description, no
 * action rows. `typed`: what was typed in it before (Edit after an invalid submit), over the prefilled values.
 */
export function formModal(
  customId: string,
  { title, fields }: ModalRequest['modal'],
  typed: Record<string, string> = {},
): APIModalInteractionResponseCallbackData {
  if (fields.length === 0 || fields.length > MODAL_LIMITS.components)
    throw new Error(`a modal holds 1 to ${MODAL_LIMITS.components} components, not ${fields.length}`);
  return {
    custom_id: customId,
    title: cutText(title, MODAL_LIMITS.title),
    components: fields.map(
      (field): APILabelComponent => ({
        type: ComponentType.Label,
        label: cutText(field.label, MODAL_LIMITS.label),
        ...(field.description ? { description: cutText(field.description, MODAL_LIMITS.description) } : {}),
        component: input(field, typed[field.id]),
      }),
    ),
  };
}

/** What a submitted modal holds, as discord.js (or the console's stand-in) reads it. */
export interface SubmittedFields {
  getField(customId: string): object;
}

/**
 * The values of a submitted form by field id (an input missing from the submit reads as empty). A choice
 * must be one the form offered: anything else is refused as that field's error.
 */
export function formValues(fields: SubmittedFields, form: readonly FormField[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of form) {
    let submitted: { value?: unknown; values?: unknown } | undefined;
    try {
      submitted = fields.getField(field.id);
    } catch {
      submitted = undefined;
    }
    // A text input or radio group has a value; a select menu its values.
    const value = submitted?.value ?? (Array.isArray(submitted?.values) ? submitted.values[0] : undefined);
    values[field.id] = typeof value === 'string' ? value : '';
  }
  return values;
}

/** Refuses a choice the form did not offer (a submit made by hand), naming the field and what it offers. */
export function checkChoices(form: readonly FormField[], values: Record<string, string>): void {
  for (const field of form) {
    if (field.kind !== 'choice') continue;
    const value = values[field.id] ?? '';
    if (!field.choices.some((choice) => choice.value === value)) {
      throw new InvalidOptionError(
        field.id,
        message('forms.not_offered', { value: value ? escapeUserText(value, 100) : '—' }),
        message('forms.one_of', { choices: field.choices.map((c) => c.label).join(', ') }),
      );
    }
  }
}
