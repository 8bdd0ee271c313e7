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
  'musicbot.form.title': 'New music-bot customer',
  'musicbot.form.username': 'The login of the account: 1 to 64 characters, no spaces',
  'musicbot.form.email': 'Where the customer is reached',
  'musicbot.form.storage': 'The storage quota of the account',
  'musicbot.form.bots': 'How many bots the customer may run at once',
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
  'musicbot.form.title': 'Neuer Musikbot-Kunde',
  'musicbot.form.username': 'Der Login des Kontos: 1 bis 64 Zeichen, keine Leerzeichen',
  'musicbot.form.email': 'Wo der Kunde erreichbar ist',
  'musicbot.form.storage': 'Das Speicherkontingent des Kontos',
  'musicbot.form.bots': 'Wie viele Bots der Kunde gleichzeitig betreiben darf',
  'musicbot.create.password_later': 'wird beim Bestätigen erzeugt, nur dir angezeigt',
  'musicbot.create.done': 'Musikbot-Konto angelegt',
  'musicbot.create.password':
    'Passwort (wird nur einmal und nur dir angezeigt): {password}\nGib es dem Kunden über einen privaten Kanal weiter.',
  'musicbot.create.record': '🎵 {requester} hat ein Musikbot-Konto angelegt.',
});
