import type { RegistryRecord } from '../store/index.js';
import type { RegistryView } from './RegistryCheck.js';
import { registryDate } from './registryFindings.js';

/** The registry's word for one domain beside the provider's, as a command shows it. */
export interface RegistryBeside extends RegistryView {
  /** When the provider's answer shown beside it was read. */
  providerReadAt: Date;
  /** Still being asked: `record` is what was stored before, and the answer is edited once it comes. */
  pending?: true;
}

/** What an answer's data (the console's --json) carries of the registry. */
export type RegistryData = {
  outcome: RegistryRecord['outcome'] | 'not_asked';
  /** Calendar day in the API's zone. */
  expires: string | null;
  statuses: string[] | null;
  nameservers: string[] | null;
  delegationSigned: boolean | null;
  readAt: string | null;
  providerReadAt: string;
  /** Why it could not be asked just now. */
  failed?: string;
  /** Still being asked when the answer went out (an edit follows). */
  pending?: true;
};

export function registryData(view: RegistryBeside, zone: string): RegistryData {
  const { record } = view;
  return {
    outcome: record?.outcome ?? 'not_asked',
    expires: record?.expiresAt ? registryDate(record.expiresAt, zone) : null,
    statuses: record?.statuses ?? null,
    nameservers: record?.nameservers ?? null,
    delegationSigned: record?.delegationSigned ?? null,
    readAt: record?.readAt.toISOString() ?? null,
    providerReadAt: view.providerReadAt.toISOString(),
    ...(view.failed ? { failed: view.failed } : {}),
    ...(view.pending ? { pending: true } : {}),
  };
}
