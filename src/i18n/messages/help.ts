import { translationOf } from '../defineMessages.js';

/** /help: the command list (the commands' own descriptions come from commandTexts). */
export const en = {
  'help.title': 'HostOps commands',
  'help.confirm_first': 'Changes always ask for confirmation first.',
  'help.where': 'on {patterns} (your grants)',
  'help.footer': '✅ you may run it here · 🚫 you may not. Your tier: {tier}.',
  'help.footer_elsewhere':
    '✅ you may run it here · 🚫 you may not. Your tier: {tier}. Commands are only taken in the ops channels.',
  'help.sandbox':
    '🧪 The sandbox knows these domains: {domains}; and these servers: {servers}. Any other name or id is answered as not found.',
} as const;

export const de = translationOf(en)({
  'help.title': 'HostOps-Befehle',
  'help.confirm_first': 'Änderungen fragen immer zuerst nach einer Bestätigung.',
  'help.where': 'für {patterns} (deine Berechtigungen)',
  'help.footer': '✅ darfst du hier ausführen · 🚫 darfst du nicht. Deine Stufe: {tier}.',
  'help.footer_elsewhere':
    '✅ darfst du hier ausführen · 🚫 darfst du nicht. Deine Stufe: {tier}. Befehle werden nur in den Ops-Kanälen angenommen.',
  'help.sandbox':
    '🧪 Die Sandbox kennt diese Domains: {domains}; und diese Server: {servers}. Jeder andere Name und jede andere Id gilt als nicht gefunden.',
});
