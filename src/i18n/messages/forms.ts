import { translationOf } from '../defineMessages.js';

/** Forms (modals): what every form says about its fields, whichever command opened it. */
export const en = {
  'forms.invalid_field':
    '**{field}**: {problem}. Expected {expected}.\nNothing was sent. **Edit** opens the form again with everything you typed.',
  'forms.edit': 'Edit',
  'forms.not_offered': '{value} is not one of the choices this form offered',
  'forms.one_of': 'one of {choices}',
} as const;

export const de = translationOf(en)({
  'forms.invalid_field':
    '**{field}**: {problem}. Erwartet: {expected}.\nEs wurde nichts gesendet. **Bearbeiten** öffnet das Formular wieder mit allem, was du eingegeben hast.',
  'forms.edit': 'Bearbeiten',
  'forms.not_offered': '{value} ist keine der Auswahlmöglichkeiten dieses Formulars',
  'forms.one_of': 'eins von {choices}',
});
