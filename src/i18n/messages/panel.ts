import { translationOf } from '../defineMessages.js';

/** /panel: hosting-panel licenses. */
export const en = {
  'panel.license.what': 'license key',
  'panel.license.masked': 'this is the masked form of a key (its last four characters), not the key itself',
  'panel.license.expected': 'the license key without spaces, such as ABCD-1234-EFGH',
  'panel.bind.title': 'Bind panel license',
  'panel.bind.license': 'License',
  'panel.bind.ip': 'IP address',
  'panel.bind.summary': 'panel license {license} → {ip}',
  'panel.bind.done': 'License bound',
  'panel.bind.record': '🔑 {requester} bound {summary}.',
} as const;

export const de = translationOf(en)({
  'panel.license.what': 'Lizenzschlüssel',
  'panel.license.masked':
    'das ist die maskierte Form eines Schlüssels (seine letzten vier Zeichen), nicht der Schlüssel selbst',
  'panel.license.expected': 'den Lizenzschlüssel ohne Leerzeichen, etwa ABCD-1234-EFGH',
  'panel.bind.title': 'Panel-Lizenz binden',
  'panel.bind.license': 'Lizenz',
  'panel.bind.ip': 'IP-Adresse',
  'panel.bind.summary': 'Panel-Lizenz {license} → {ip}',
  'panel.bind.done': 'Lizenz gebunden',
  'panel.bind.record': '🔑 {requester} hat {summary} gebunden.',
});
