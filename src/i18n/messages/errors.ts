import { translationOf } from '../defineMessages.js';

/** Refusals, invalid options and every failure, as describeError and the gates put them. */
export const en = {
  'errors.reference': 'Reference: `{id}`.',
  'errors.invalid_option': '`{option}`: {problem}. Expected {expected}.',
  'errors.refused.guild':
    'HostOps only takes commands in a server where it is installed, not in direct messages or as a user app.',
  'errors.refused.channel': 'HostOps only takes commands in {channels}.',
  'errors.refused.everyone': '`{command}` is not available to you.',
  'errors.refused.tier': '`{command}` needs the **{tier}** tier: {roles}.',
  'errors.refused.tier_roles': 'one of these roles: {roles}',
  'errors.refused.tier_console': 'run the console with --as {tier}',
  'errors.refused.tier_unconfigured': 'a role that is not configured yet ({variable}); ask an admin',
  'errors.restarting': 'HostOps is restarting; try again in a minute.',
  'errors.store_undecided':
    'HostOps could not reach its store to take this on, so nothing was done. Try again in a moment.',
  'errors.unknown_command':
    '`{command}` is not a command this version of HostOps knows. Ask an admin to redeploy the commands.',
  'errors.other_guild': 'HostOps serves only the server it was set up for.',
  'errors.form_closed':
    'This form is no longer open (it expired, was sent already, or is not yours). Nothing was sent. Run the command again.',
  'errors.nothing_to_show': 'Nothing to show.',
  'errors.unauthorized': "The hosting API rejected HostOps' token ({status}). Tell an admin. {reference}",
  'errors.not_found': 'The provider answered "not found". {reference}',
  'errors.not_found.serverLog': 'The provider has no log entry for that server id.',
  'errors.not_found.domainInfo': 'The provider does not know this domain (or it is not in this account).',
  'errors.rate_limited': 'The provider is rate limiting us: retry in {seconds} s.',
  'errors.upstream': 'The provider returned an error ({status}). Try again later. {reference}',
  'errors.bad_response': 'The provider sent an answer HostOps cannot read. {reference}',
  'errors.timeout': 'No answer from the provider within {seconds} s. Try again later. {reference}',
  'errors.network': 'Cannot reach the provider right now. Try again later. {reference}',
  'errors.request_too_large':
    'The request is too large for the provider ({status}); nothing was changed. Send less at once. {reference}',
  'errors.request_too_large.not_sent': 'not sent',
  'errors.no_connection':
    "No connection to the provider came free within {seconds} s (HostOps' own limit on requests at once, not the provider's fault); nothing was sent. Try again in a moment. {reference}",
  'errors.outcome_unknown': '**Outcome unknown** — {reason}. Check {check} before trying again. {reference}',
  'errors.outcome_unknown.gateway':
    'provider gateway answered {status}; the change may or may not have been applied',
  'errors.outcome_unknown.unreadable':
    'the provider answered {status} but its answer could not be read; the change may or may not have been applied',
  'errors.outcome_unknown.timeout':
    'no answer within {seconds} s; the change may or may not have been applied',
  'errors.outcome_unknown.connection':
    'connection lost before the provider answered; the change may or may not have been applied',
  'errors.outcome_unknown.check_domain': 'with /domain info',
  'errors.outcome_unknown.check_provider': 'with the provider',
  'errors.internal': 'Something went wrong on our side; nothing more was sent. {reference}',
  'errors.short.invalid': 'invalid',
  'errors.short.refused': 'refused',
  'errors.short.unauthorized': 'token rejected',
  'errors.short.not_found': 'not found',
  'errors.short.rate_limited': 'rate limited, retry in {seconds} s',
  'errors.short.upstream': 'provider error {status}',
  'errors.short.bad_response': 'unreadable answer',
  'errors.short.timeout': 'no answer in time',
  'errors.short.network': 'provider unreachable',
  'errors.short.request_too_large': 'request too large',
  'errors.short.no_connection': 'not sent, no free connection',
  'errors.short.outcome_unknown': 'outcome unknown',
  'errors.short.internal': 'internal error',
} as const;

export const de = translationOf(en)({
  'errors.reference': 'Referenz: `{id}`.',
  'errors.invalid_option': '`{option}`: {problem}. Erwartet: {expected}.',
  'errors.refused.guild':
    'HostOps nimmt Befehle nur auf einem Server an, auf dem es installiert ist, nicht in Direktnachrichten oder als Benutzer-App.',
  'errors.refused.channel': 'HostOps nimmt Befehle nur in {channels} an.',
  'errors.refused.everyone': '`{command}` steht dir nicht zur Verfügung.',
  'errors.refused.tier': '`{command}` erfordert die Stufe **{tier}**: {roles}.',
  'errors.refused.tier_roles': 'eine dieser Rollen: {roles}',
  'errors.refused.tier_console': 'starte die Konsole mit --as {tier}',
  'errors.refused.tier_unconfigured':
    'eine Rolle, die noch nicht eingerichtet ist ({variable}); frag einen Admin',
  'errors.restarting': 'HostOps startet gerade neu; versuch es in einer Minute noch einmal.',
  'errors.store_undecided':
    'HostOps konnte seinen Speicher nicht erreichen, um das zu übernehmen, daher ist nichts passiert. Versuch es gleich noch einmal.',
  'errors.unknown_command':
    '`{command}` ist kein Befehl, den diese Version von HostOps kennt. Bitte einen Admin, die Befehle neu zu registrieren.',
  'errors.other_guild': 'HostOps bedient nur den Server, für den es eingerichtet wurde.',
  'errors.form_closed':
    'Dieses Formular ist nicht mehr offen (abgelaufen, schon gesendet oder nicht deins). Es wurde nichts gesendet. Führ den Befehl noch einmal aus.',
  'errors.nothing_to_show': 'Nichts anzuzeigen.',
  'errors.unauthorized':
    'Die Hosting-API hat das Token von HostOps abgelehnt ({status}). Sag einem Admin Bescheid. {reference}',
  'errors.not_found': 'Der Provider hat mit „nicht gefunden“ geantwortet. {reference}',
  'errors.not_found.serverLog': 'Der Provider hat keinen Logeintrag für diese Server-ID.',
  'errors.not_found.domainInfo':
    'Der Provider kennt diese Domain nicht (oder sie gehört nicht zu diesem Konto).',
  'errors.rate_limited': 'Der Provider drosselt unsere Anfragen: versuch es in {seconds} s noch einmal.',
  'errors.upstream':
    'Der Provider hat einen Fehler gemeldet ({status}). Versuch es später noch einmal. {reference}',
  'errors.bad_response': 'Der Provider hat eine Antwort geschickt, die HostOps nicht lesen kann. {reference}',
  'errors.timeout':
    'Keine Antwort vom Provider innerhalb von {seconds} s. Versuch es später noch einmal. {reference}',
  'errors.network': 'Der Provider ist gerade nicht erreichbar. Versuch es später noch einmal. {reference}',
  'errors.request_too_large':
    'Die Anfrage ist zu groß für den Provider ({status}); es wurde nichts geändert. Schick weniger auf einmal. {reference}',
  'errors.request_too_large.not_sent': 'nicht gesendet',
  'errors.no_connection':
    "Innerhalb von {seconds} s wurde keine Verbindung zum Provider frei (HostOps' eigene Grenze für gleichzeitige Anfragen, kein Fehler des Providers); es wurde nichts gesendet. Versuch es gleich noch einmal. {reference}",
  'errors.outcome_unknown':
    '**Ergebnis unbekannt** — {reason}. Prüf es {check}, bevor du es noch einmal versuchst. {reference}',
  'errors.outcome_unknown.gateway':
    'das Gateway des Providers hat {status} geantwortet; die Änderung wurde vielleicht ausgeführt, vielleicht nicht',
  'errors.outcome_unknown.unreadable':
    'der Provider hat {status} geantwortet, aber seine Antwort war nicht lesbar; die Änderung wurde vielleicht ausgeführt, vielleicht nicht',
  'errors.outcome_unknown.timeout':
    'keine Antwort innerhalb von {seconds} s; die Änderung wurde vielleicht ausgeführt, vielleicht nicht',
  'errors.outcome_unknown.connection':
    'die Verbindung brach ab, bevor der Provider antwortete; die Änderung wurde vielleicht ausgeführt, vielleicht nicht',
  'errors.outcome_unknown.check_domain': 'mit /domain info',
  'errors.outcome_unknown.check_provider': 'beim Provider',
  'errors.internal': 'Bei uns ist etwas schiefgegangen; es wurde nichts weiter gesendet. {reference}',
  'errors.short.invalid': 'ungültig',
  'errors.short.refused': 'abgelehnt',
  'errors.short.unauthorized': 'Token abgelehnt',
  'errors.short.not_found': 'nicht gefunden',
  'errors.short.rate_limited': 'gedrosselt, erneut in {seconds} s',
  'errors.short.upstream': 'Providerfehler {status}',
  'errors.short.bad_response': 'unlesbare Antwort',
  'errors.short.timeout': 'keine Antwort rechtzeitig',
  'errors.short.network': 'Provider nicht erreichbar',
  'errors.short.request_too_large': 'Anfrage zu groß',
  'errors.short.no_connection': 'nicht gesendet, keine Verbindung frei',
  'errors.short.outcome_unknown': 'Ergebnis unbekannt',
  'errors.short.internal': 'interner Fehler',
});
