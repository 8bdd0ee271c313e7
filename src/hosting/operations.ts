import type { DateTime } from 'luxon';
import { type DnsRecord, encodeDnsRecords } from './dnsRecords.js';

// The provider's operations (spec §3-§4): what each takes and gives back, and how a change is sent.

export interface ServerLogEntry {
  type: string;
  status: string;
  start: Date | null;
  end: Date | null;
}

export interface DomainInfo {
  /** Calendar date of expiry, at the start of that day in the API's zone; null when the API sends none. */
  expiryDate: DateTime | null;
  active: boolean;
  expired: boolean;
  transferredAway: boolean;
}

export interface MusicBotUser {
  id: number;
  username: string;
  email: string;
  storage: number;
  bots: number;
}

export interface SetReverseDnsInput {
  serverId: number;
  ip: string;
  hostname: string;
  validate: boolean;
}

export interface CreateMusicBotUserInput {
  username: string;
  password: string;
  email: string;
  storage: number;
  bots: number;
}

export interface BindPanelLicenseInput {
  license: string;
  ip: string;
}

export interface CreateDomainInput {
  domain: string;
  ownerC: string;
  adminC: string;
  techC: string;
  zoneC: string;
  ns1: string;
  ns2: string;
}

export interface SubmitDnsRecordsInput {
  domain: string;
  /** Encoded by encodeDnsRecords: the spec only says "a records array carried in a single string". */
  records: DnsRecord[];
}

/** What each changing operation takes: a change record's parameters, before secrets are added. */
export interface ChangeInputs {
  setReverseDns: SetReverseDnsInput;
  createMusicBotUser: CreateMusicBotUserInput;
  bindPanelLicense: BindPanelLicenseInput;
  createDomain: CreateDomainInput;
  submitDnsRecords: SubmitDnsRecordsInput;
}
export type ChangeOperation = keyof ChangeInputs;
/** Every operation of the API, as errors and logs name them. */
export type OperationName = 'serverLog' | 'domainInfo' | ChangeOperation;
export type ChangeInput<K extends ChangeOperation> = ChangeInputs[K];

interface ChangeRequest<I> {
  method: 'PUT' | 'POST';
  path: string;
  query: (input: I) => Record<string, string>;
}

/**
 * The operations that change something, all of them parameters in the query string (spec §4). One
 * table serves both the call and requestTargetBytes, so what is measured is what is sent.
 */
export const CHANGE_REQUESTS: { [K in ChangeOperation]: ChangeRequest<ChangeInputs[K]> } = {
  setReverseDns: {
    method: 'PUT',
    path: '/server/set/network/ipv4/rdns',
    query: (input: SetReverseDnsInput) => ({
      serverid: String(input.serverId),
      ip: input.ip,
      rdns: input.hostname,
      validate: String(input.validate),
    }),
  },
  createMusicBotUser: {
    method: 'POST',
    path: '/musikbot/user',
    query: (input: CreateMusicBotUserInput) => ({
      username: input.username,
      password: input.password,
      email: input.email,
      storage: String(input.storage),
      bots: String(input.bots),
    }),
  },
  bindPanelLicense: {
    method: 'POST',
    path: '/panel/license/binding',
    query: (input: BindPanelLicenseInput) => ({ license: input.license, ip_address: input.ip }),
  },
  createDomain: {
    method: 'POST',
    path: '/domain/create',
    query: ({ domain, ownerC, adminC, techC, zoneC, ns1, ns2 }: CreateDomainInput) => ({
      domain,
      ownerC,
      adminC,
      techC,
      zoneC,
      ns1,
      ns2,
    }),
  },
  submitDnsRecords: {
    method: 'POST',
    path: '/domain/dns',
    query: (input: SubmitDnsRecordsInput) => ({
      domain: input.domain,
      records: encodeDnsRecords(input.records),
    }),
  },
};
