import type { Translator } from '../i18n/Translator.js';
import type { RegistryAlert } from '../rdap/registryFindings.js';
import { escapeUserText } from '../replies/escapeUserText.js';
import { calendarDate } from './formatDate.js';

const list = (names: readonly string[] | undefined) => escapeUserText((names ?? []).join(', ') || '—', 300);

/** One digest line for a registry finding; `name` is the domain as the digest shows it. */
export function registryAlertLine(alert: RegistryAlert, name: string, t: Translator): string {
  switch (alert.kind) {
    case 'registry_expiry_differs': {
      const registry = alert.registryDate ?? '';
      const provider = alert.providerDate ?? '';
      return t('rdap.alert.expiry_differs', {
        name,
        registry: calendarDate(registry, t),
        provider: calendarDate(provider, t),
        earlier: registry < provider ? t('rdap.alert.earlier_registry') : t('rdap.alert.earlier_provider'),
      });
    }
    case 'registry_transfer_pending':
      return t('rdap.alert.transfer_pending', { name, statuses: list(alert.statuses) });
    case 'registry_held':
      return t('rdap.alert.held', { name, statuses: list(alert.statuses) });
    case 'registry_transfer_lock_off':
      return t('rdap.alert.transfer_lock_off', { name });
    case 'registry_nameservers_changed':
      return t('rdap.alert.nameservers_changed', { name, from: list(alert.from), to: list(alert.to) });
    case 'registry_unreadable':
      return t('rdap.alert.unreadable', { name, why: escapeUserText(alert.why ?? '', 120) });
  }
}

/** Where a finding goes in the digest (see renderDigest's rank): all but an unreadable answer are urgent. */
export function registryRank(alert: RegistryAlert): number {
  return alert.kind === 'registry_unreadable' ? 3 : 1;
}
