import type { DnsRecord } from '../hosting/dnsRecords.js';

export interface RecordChange {
  from: DnsRecord;
  to: DnsRecord;
}

/** What a new record set does to the one sent before it. */
export interface RecordSetDiff {
  added: DnsRecord[];
  removed: DnsRecord[];
  /** The same name and type with another value, TTL or priority. */
  changed: RecordChange[];
  unchanged: number;
}

const sameValue = (a: DnsRecord, b: DnsRecord) => a.content === b.content;
const sameAll = (a: DnsRecord, b: DnsRecord) => sameValue(a, b) && a.ttl === b.ttl && a.prio === b.prio;
const sameKey = (a: DnsRecord, b: DnsRecord) => a.name === b.name && a.type === b.type;

/**
 * Pairs records in three passes, each taking what the one before left: identical records (unchanged);
 * the same name, type and value (a TTL or priority changed); the same name and type, in order (a value
 * changed). What is left over was added or removed. A name with several records of one type (A, MX,
 * TXT) is paired value-first, so reordering a set shows no change.
 */
export function diffRecordSets(before: readonly DnsRecord[], after: readonly DnsRecord[]): RecordSetDiff {
  const removed = [...before];
  const added: DnsRecord[] = [];
  const changed: RecordChange[] = [];
  let unchanged = 0;
  const pending: DnsRecord[] = [];
  for (const record of after) {
    const at = removed.findIndex((old) => sameKey(old, record) && sameAll(old, record));
    if (at === -1) pending.push(record);
    else {
      removed.splice(at, 1);
      unchanged++;
    }
  }
  const rest: DnsRecord[] = [];
  for (const record of pending) {
    const at = removed.findIndex((old) => sameKey(old, record) && sameValue(old, record));
    if (at === -1) rest.push(record);
    else changed.push({ from: removed.splice(at, 1)[0] as DnsRecord, to: record });
  }
  for (const record of rest) {
    const at = removed.findIndex((old) => sameKey(old, record));
    if (at === -1) added.push(record);
    else changed.push({ from: removed.splice(at, 1)[0] as DnsRecord, to: record });
  }
  return { added, removed, changed, unchanged };
}
