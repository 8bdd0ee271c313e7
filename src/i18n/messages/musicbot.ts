import { translationOf } from '../defineMessages.js';

/** /musicbot: music-bot customer accounts. */
export const en = {
  'musicbot.size_one': '{count} byte ({size})',
  'musicbot.size_other': '{count} bytes ({size})',
  'musicbot.field.id': 'Id',
  'musicbot.field.username': 'User name',
  'musicbot.field.email': 'E-mail',
  'musicbot.field.storage': 'Storage',
  'musicbot.field.bots': 'Bots',
  'musicbot.field.password': 'Password',
  'musicbot.create.title': 'Create music-bot account',
  'musicbot.create.password_later': 'generated on confirm, shown only to you',
  'musicbot.create.done': 'Music-bot account created',
  'musicbot.create.password':
    'Password (shown once, only to you): {password}\nPass it to the customer over a private channel.',
  'musicbot.create.record': '🎵 {requester} created a music-bot account.',
} as const;

export const de = translationOf(en)({
  'musicbot.size_one': '{count} Byte ({size})',
  'musicbot.size_other': '{count} Byte ({size})',
  'musicbot.field.id': 'ID',
  'musicbot.field.username': 'Benutzername',
  'musicbot.field.email': 'E-Mail',
  'musicbot.field.storage': 'Speicher',
  'musicbot.field.bots': 'Bots',
  'musicbot.field.password': 'Passwort',
  'musicbot.create.title': 'Musikbot-Konto anlegen',
  'musicbot.create.password_later': 'wird beim Bestätigen erzeugt, nur dir angezeigt',
  'musicbot.create.done': 'Musikbot-Konto angelegt',
  'musicbot.create.password':
    'Passwort (wird nur einmal und nur dir angezeigt): {password}\nGib es dem Kunden über einen privaten Kanal weiter.',
  'musicbot.create.record': '🎵 {requester} hat ein Musikbot-Konto angelegt.',
});
