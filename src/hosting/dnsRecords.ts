export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/**
 * A validated record, normalised:
 * - `name` is `@` or a lowercase ASCII name relative to the zone (`www`, `_dmarc`, `*.dev`);
 * - CNAME, NS and MX targets are ASCII host names without the trailing dot (`mail.example.com`), as are
 *   SRV targets inside `content` (`5 5060 sip.example.com`); targets are always fully qualified;
 * - TXT `content` is the text itself: quotes removed, escapes resolved, several quoted strings joined;
 * - CAA `content` is `flags tag "value"` with the tag lowercased.
 */
export interface DnsRecord {
  name: string;
  type: DnsRecordType;
  content: string;
  ttl: number;
  /** MX preference or SRV priority; only set for those two types. */
  prio?: number;
}

/**
 * Turns records into the string the API receives. The API spec does not show how records are really
 * encoded, so this is the single place to change once that is known; everything else passes DnsRecord[].
 * Currently: a JSON array of `{name, type, content, ttl, prio?}` with `prio` left out when undefined.
 */
export function encodeDnsRecords(records: DnsRecord[]): string {
  return JSON.stringify(
    records.map(({ name, type, content, ttl, prio }) =>
      prio === undefined ? { name, type, content, ttl } : { name, type, content, ttl, prio },
    ),
  );
}
