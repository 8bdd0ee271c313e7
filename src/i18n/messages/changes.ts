import { translationOf } from '../defineMessages.js';

/**
 * The confirmation flow of every change: the prompt and its buttons, its later states, approval
 * requests and their decisions, outcomes the flow writes itself, read-backs and shutdown.
 */
export const en = {
  'changes.button.confirm': 'Confirm',
  'changes.button.cancel': 'Cancel',
  'changes.button.approve': 'Approve',
  'changes.button.reject': 'Reject',
  'changes.button.send_again': 'Send again',
  'changes.button.try_again': 'Try again',
  // How a button is referred to in Discord; the console says it in its own words (console.press…).
  'changes.press': 'press **{button}**',
  'changes.press_again': 'Press **{button}** again in a moment',
  'changes.prompt.description': 'Nothing is sent until you {press}. This prompt expires {expires}.',
  'changes.prompt.cancelled': 'Cancelled — nothing was sent.',
  'changes.prompt.expired': 'Expired — nothing was sent. Run the command again.',
  'changes.prompt.sending': 'Sending…',
  'changes.busy':
    'Not sent yet: another change to {target} is being sent right now. {pressAgain}: it is then checked against that change first.',
  'changes.not_sent': 'Not sent: {reason}',
  'changes.undecided':
    'Not sent: the store could not be reached to record this press, so nothing was done. {pressAgain}.',
  'changes.orphan.not_sent':
    '{requester}: `{command}` {target} was **not sent** — HostOps stopped or lost its store before handing it to the provider. Nothing changed; run it again if it is still needed. {reference}',
  'changes.outcome.unrecorded':
    '**Outcome not recorded yet** — the store could not be reached to record it; HostOps records it as soon as it can, and the audit channel says how it ended. {reference}',
  'changes.unknown_change': 'This change is no longer known.',
  'changes.unknown_change.run_again': 'This change is no longer known. Run the command again.',
  'changes.only_requester.confirm': 'Only {requester} can confirm this change.',
  'changes.only_requester.cancel': 'Only {requester} can cancel this change.',
  'changes.only_requester.send_again': 'Only {requester} can send again this change.',
  'changes.only_requester.try_again': 'Only {requester} can try again this change.',
  'changes.closed.confirmed': 'This confirmation is no longer open: the change was already confirmed.',
  'changes.closed.cancelled': 'This confirmation is no longer open: it was cancelled; nothing was sent.',
  'changes.closed.expired':
    'This confirmation is no longer open: it expired; nothing was sent. Run the command again.',
  'changes.closed.awaiting_approval': 'This change was already confirmed and waits for approval.',
  'changes.closed.rejected': 'This change was rejected; nothing was sent.',
  'changes.decided.awaiting_approval': 'This change still waits for approval.',
  'changes.decided.expired': 'This approval request expired; nothing was sent.',
  'changes.decided.rejected': 'This change was rejected or withdrawn; nothing was sent.',
  'changes.decided.approved': 'This change was already approved.',
  'changes.approval.not_here_always':
    '`{command}` always needs a second person to approve it, and approvals are given in Discord: run it there. Nothing was sent.',
  'changes.approval.not_here':
    '`{command}` needs a second person to approve it (APPROVAL_REQUIRED), and approvals are given in Discord: run it there. Nothing was sent.',
  'changes.secret_unreadable':
    'The `{option}` kept for this change can no longer be read (HOSTING_API_TOKEN changed since it was typed, or it was not sealed for this change by this version of HostOps). Nothing was sent: run the command again.',
  'changes.approval.not_holder':
    'Only someone who holds every right this request asks for may approve it: {why} Nothing is in force.',
  'changes.approval.own_change':
    'You asked for this change: someone else has to approve it. Nothing was sent.',
  'changes.approval.posting': 'Posting the approval request…',
  'changes.approval.pending':
    '**Approval pending** — nothing is sent until someone else with the **{tier}** tier approves the request in {channel}: {link}. It expires {expires}.',
  'changes.approval.requested':
    'Requested by {requester} ({name}). Any member with the **{tier}** tier except them may approve; it expires {expires}.',
  'changes.approval.requested_holder':
    'Requested by {requester} ({name}). Anyone who holds every right it asks for, except them, may approve; it expires {expires}.',
  'changes.approval.pending_holder':
    '**Approval pending** — nothing is in force until someone else who holds these rights approves the request in {channel}: {link}. It expires {expires}.',
  'changes.approval.title': 'Approval needed: {title}',
  'changes.approval.footer': 'Reference {id}',
  'changes.approval.sending': 'Approved by {approver} — sending…',
  'changes.approval.done': '**Done** — requested by {requester}, approved by {approver}.',
  'changes.approval.public_record': '{content} (approved by {approver})',
  'changes.approval.rejected': '**Rejected** by {by}. Nothing was sent.',
  'changes.approval.rejected_because': '**Rejected** by {by}: {reason}. Nothing was sent.',
  'changes.approval.withdrawn': '**Withdrawn** by {by}. Nothing was sent.',
  'changes.approval.withdrawn_because': '**Withdrawn** by {by}: {reason}. Nothing was sent.',
  'changes.approval.rejected_reply': 'Rejected. Nothing was sent.',
  'changes.approval.withdrawn_reply': 'Withdrawn. Nothing was sent.',
  'changes.approval.expired': '**Expired** — nobody approved it in time. Nothing was sent.',
  'changes.reject_modal.title': 'Reject this change',
  'changes.reject_modal.reason': 'Reason (optional)',
  'changes.reject_modal.description': 'Shown with the request in the channel',
  'changes.outcome.shutdown':
    '**Outcome unknown** — HostOps had to restart before the provider answered; the request was sent. Check before trying again. {reference}',
  'changes.revert.nothing':
    'There is nothing to go back to for {target}: no earlier change was sent through HostOps.',
  'changes.outcome.lease_lost':
    '**Outcome unknown** — this HostOps replica stalled while sending, and another replica took the change over and recorded its outcome as unknown. Check with the provider before trying again. {reference}',
  'changes.outcome.repeatable_unknown':
    '**Outcome unknown** — {reason}. This change is safe to send again. {reference}',
  'changes.outcome.no_answer': 'no answer from the provider within {seconds} s',
  'changes.orphan.unknown':
    '⚠️ {requester}: **outcome unknown** for `{command}` {target} — the HostOps replica sending it stopped before the provider answered. Check before trying again. {reference}',
  'changes.read_back.checking': 'Checking with the provider whether it took effect…',
  'changes.read_back.took_effect': '{requester}: {title} took effect after all — {text}',
  'changes.read_back.still_unknown_one':
    '**Outcome still unknown** after {count} check. Check before trying again; `/audit outcome:unknown` lists it. {reference}',
  'changes.read_back.still_unknown_other':
    '**Outcome still unknown** after {count} checks. Check before trying again; `/audit outcome:unknown` lists it. {reference}',
} as const;

export const de = translationOf(en)({
  'changes.button.confirm': 'Bestätigen',
  'changes.button.cancel': 'Abbrechen',
  'changes.button.approve': 'Freigeben',
  'changes.button.reject': 'Ablehnen',
  'changes.button.send_again': 'Erneut senden',
  'changes.button.try_again': 'Noch einmal versuchen',
  'changes.press': '**{button}** drückst',
  'changes.press_again': 'Drück gleich noch einmal **{button}**',
  'changes.prompt.description': 'Es wird nichts gesendet, bis du {press}. Diese Abfrage läuft {expires} ab.',
  'changes.prompt.cancelled': 'Abgebrochen — es wurde nichts gesendet.',
  'changes.prompt.expired': 'Abgelaufen — es wurde nichts gesendet. Führ den Befehl noch einmal aus.',
  'changes.prompt.sending': 'Wird gesendet…',
  'changes.busy':
    'Noch nicht gesendet: Gerade wird eine andere Änderung an {target} gesendet. {pressAgain}: Dann wird sie zuerst mit dieser Änderung abgeglichen.',
  'changes.not_sent': 'Nicht gesendet: {reason}',
  'changes.undecided':
    'Nicht gesendet: Der Speicher war nicht erreichbar, um diesen Klick zu verbuchen, daher ist nichts passiert. {pressAgain}.',
  'changes.orphan.not_sent':
    '{requester}: `{command}` {target} wurde **nicht gesendet** — HostOps hielt an oder verlor seinen Speicher, bevor die Anfrage an den Provider ging. Nichts wurde geändert; führ es erneut aus, falls es noch nötig ist. {reference}',
  'changes.outcome.unrecorded':
    '**Ergebnis noch nicht verbucht** — der Speicher war nicht erreichbar; HostOps verbucht es, sobald es kann, und der Audit-Kanal sagt, wie es ausging. {reference}',
  'changes.unknown_change': 'Diese Änderung ist nicht mehr bekannt.',
  'changes.unknown_change.run_again':
    'Diese Änderung ist nicht mehr bekannt. Führ den Befehl noch einmal aus.',
  'changes.only_requester.confirm': 'Nur {requester} kann diese Änderung bestätigen.',
  'changes.only_requester.cancel': 'Nur {requester} kann diese Änderung abbrechen.',
  'changes.only_requester.send_again': 'Nur {requester} kann diese Änderung erneut senden.',
  'changes.only_requester.try_again': 'Nur {requester} kann diese Änderung noch einmal versuchen.',
  'changes.closed.confirmed': 'Diese Bestätigung ist nicht mehr offen: Die Änderung wurde bereits bestätigt.',
  'changes.closed.cancelled':
    'Diese Bestätigung ist nicht mehr offen: Sie wurde abgebrochen; es wurde nichts gesendet.',
  'changes.closed.expired':
    'Diese Bestätigung ist nicht mehr offen: Sie ist abgelaufen; es wurde nichts gesendet. Führ den Befehl noch einmal aus.',
  'changes.closed.awaiting_approval': 'Diese Änderung wurde bereits bestätigt und wartet auf Freigabe.',
  'changes.closed.rejected': 'Diese Änderung wurde abgelehnt; es wurde nichts gesendet.',
  'changes.decided.awaiting_approval': 'Diese Änderung wartet noch auf Freigabe.',
  'changes.decided.expired': 'Diese Freigabeanfrage ist abgelaufen; es wurde nichts gesendet.',
  'changes.decided.rejected': 'Diese Änderung wurde abgelehnt oder zurückgezogen; es wurde nichts gesendet.',
  'changes.decided.approved': 'Diese Änderung wurde bereits freigegeben.',
  'changes.approval.not_here_always':
    '`{command}` muss immer von einer zweiten Person freigegeben werden, und Freigaben gibt es in Discord: Führ es dort aus. Es wurde nichts gesendet.',
  'changes.approval.not_here':
    '`{command}` muss von einer zweiten Person freigegeben werden (APPROVAL_REQUIRED), und Freigaben gibt es in Discord: Führ es dort aus. Es wurde nichts gesendet.',
  'changes.secret_unreadable':
    '`{option}` dieser Änderung kann nicht mehr gelesen werden (HOSTING_API_TOKEN hat sich geändert, seit es eingegeben wurde, oder es wurde nicht von dieser HostOps-Version für diese Änderung versiegelt). Es wurde nichts gesendet: Führe den Befehl erneut aus.',
  'changes.approval.not_holder':
    'Diese Anfrage darf nur freigeben, wer jedes beantragte Recht selbst hat: {why} Es gilt nichts Neues.',
  'changes.approval.own_change':
    'Du hast diese Änderung beantragt: Jemand anderes muss sie freigeben. Es wurde nichts gesendet.',
  'changes.approval.posting': 'Die Freigabeanfrage wird gepostet…',
  'changes.approval.pending':
    '**Freigabe ausstehend** — es wird nichts gesendet, bis jemand anderes mit der Stufe **{tier}** die Anfrage in {channel} freigibt: {link}. Sie läuft {expires} ab.',
  'changes.approval.requested':
    'Beantragt von {requester} ({name}). Jedes Mitglied mit der Stufe **{tier}** außer dem Antragsteller darf freigeben; die Anfrage läuft {expires} ab.',
  'changes.approval.requested_holder':
    'Beantragt von {requester} ({name}). Wer jedes beantragte Recht selbst hat, außer dem Antragsteller, darf freigeben; die Anfrage läuft {expires} ab.',
  'changes.approval.pending_holder':
    '**Freigabe ausstehend** — es gilt nichts, bis jemand anderes, der diese Rechte hat, die Anfrage in {channel} freigibt: {link}. Sie läuft {expires} ab.',
  'changes.approval.title': 'Freigabe nötig: {title}',
  'changes.approval.footer': 'Referenz {id}',
  'changes.approval.sending': 'Freigegeben von {approver} — wird gesendet…',
  'changes.approval.done': '**Erledigt** — beantragt von {requester}, freigegeben von {approver}.',
  'changes.approval.public_record': '{content} (freigegeben von {approver})',
  'changes.approval.rejected': '**Abgelehnt** von {by}. Es wurde nichts gesendet.',
  'changes.approval.rejected_because': '**Abgelehnt** von {by}: {reason}. Es wurde nichts gesendet.',
  'changes.approval.withdrawn': '**Zurückgezogen** von {by}. Es wurde nichts gesendet.',
  'changes.approval.withdrawn_because': '**Zurückgezogen** von {by}: {reason}. Es wurde nichts gesendet.',
  'changes.approval.rejected_reply': 'Abgelehnt. Es wurde nichts gesendet.',
  'changes.approval.withdrawn_reply': 'Zurückgezogen. Es wurde nichts gesendet.',
  'changes.approval.expired':
    '**Abgelaufen** — niemand hat rechtzeitig freigegeben. Es wurde nichts gesendet.',
  'changes.reject_modal.title': 'Diese Änderung ablehnen',
  'changes.reject_modal.reason': 'Grund (optional)',
  'changes.reject_modal.description': 'Wird mit der Anfrage im Kanal angezeigt',
  'changes.outcome.shutdown':
    '**Ergebnis unbekannt** — HostOps musste neu starten, bevor der Provider geantwortet hat; die Anfrage wurde gesendet. Prüf das, bevor du es noch einmal versuchst. {reference}',
  'changes.revert.nothing':
    'Für {target} gibt es nichts, zu dem es zurückgehen könnte: Es wurde noch keine frühere Änderung über HostOps gesendet.',
  'changes.outcome.lease_lost':
    '**Ergebnis unbekannt** — diese HostOps-Instanz ist beim Senden hängen geblieben, und eine andere hat die Änderung übernommen und ihr Ergebnis als unbekannt verbucht. Prüf es beim Provider, bevor du es noch einmal versuchst. {reference}',
  'changes.outcome.repeatable_unknown':
    '**Ergebnis unbekannt** — {reason}. Diese Änderung kann gefahrlos noch einmal gesendet werden. {reference}',
  'changes.outcome.no_answer': 'keine Antwort vom Provider innerhalb von {seconds} s',
  'changes.orphan.unknown':
    '⚠️ {requester}: **Ergebnis unbekannt** für `{command}` {target} — das HostOps-Replikat, das die Änderung sendete, hielt an, bevor der Provider antwortete. Prüf es, bevor du es noch einmal versuchst. {reference}',
  'changes.read_back.checking': 'Frage beim Provider nach, ob die Änderung gewirkt hat…',
  'changes.read_back.took_effect': '{requester}: {title} hat doch gewirkt — {text}',
  'changes.read_back.still_unknown_one':
    '**Ergebnis weiterhin unbekannt** nach {count} Prüfung. Prüf es, bevor du es noch einmal versuchst; `/audit ergebnis:unbekannt` listet die Änderung. {reference}',
  'changes.read_back.still_unknown_other':
    '**Ergebnis weiterhin unbekannt** nach {count} Prüfungen. Prüf es, bevor du es noch einmal versuchst; `/audit ergebnis:unbekannt` listet die Änderung. {reference}',
});
