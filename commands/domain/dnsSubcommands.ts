import { ButtonStyle, TimestampStyles, time } from 'discord.js';
import { change } from '../../src/discord/ChangeSpec.js';
import { type FormContext, read } from '../../src/discord/CommandModule.js';
import { optionalStringOption, stringOption, validated } from '../../src/discord/options.js';
import { actionButton, actionRow } from '../../src/discord/render/actionButton.js';
import { domainLabel } from '../../src/discord/render/domainLabel.js';
import { suggestDomains } from '../../src/discord/suggestions.js';
import { diffRecordSets } from '../../src/dns/diffRecordSets.js';
import { diffPreview, type EarlierSet, recordLine, recordPreview } from '../../src/dns/renderRecordSet.js';
import { type DnsRecord, encodeDnsRecords } from '../../src/hosting/dnsRecords.js';
import { figure, type Message, message, type Translator } from '../../src/i18n/Translator.js';
import { actorMention } from '../../src/replies/actorMention.js';
import { dnsRecordsData } from '../../src/replies/answerData.js';
import { Colour } from '../../src/replies/colours.js';
import { literal } from '../../src/replies/literal.js';
import { InvalidOptionError } from '../../src/replies/UserError.js';
import type { DnsSet } from '../../src/store/index.js';
import { cutText } from '../../src/text/cutText.js';
import { parseDnsRecords } from '../../src/validation/parseDnsRecords.js';
import { type ParsedDomain, parseDomain } from '../../src/validation/parseDomain.js';

// /domain dns (a change with memory: the set it replaces, a Revert button) and /domain records (what was
// sent last). The provider's API cannot read DNS records back; the store remembers what HostOps sent.

function earlierOf(set: DnsSet): { set: EarlierSet; records: DnsRecord[] } {
  return {
    set: {
      changeId: set.changeId,
      sentById: set.sentById,
      sentByName: set.sentByName,
      sentAt: set.sentAt.toISOString(),
      outcome: set.outcome,
    },
    records: JSON.parse(set.records) as DnsRecord[],
  };
}

/** Records listed by name in the sentence about an outdated prompt; all of them are in its difference. */
const OUTDATED_LISTED = 5;

/** Why a set was not sent: who sent which set since, and what this one would remove from it. */
function outdated(
  { domain, records }: DnsSubmission,
  { set, records: latest }: { set: EarlierSet; records: DnsRecord[] },
): Message {
  const { removed, changed } = diffRecordSets(latest, records);
  const listed = removed.slice(0, OUTDATED_LISTED).map((record) => literal(recordLine(record)));
  if (removed.length > OUTDATED_LISTED) listed.push('…');
  return message('domain.dns.outdated', {
    who: actorMention(set.sentById, set.sentByName),
    domain: domainLabel(domain),
    when: time(new Date(set.sentAt), TimestampStyles.LongDateTime),
    outcome: message(set.outcome === 'done' ? 'domain.dns.outcome.done' : 'domain.dns.outcome.unknown'),
    removes:
      removed.length === 0
        ? message('domain.dns.outdated.removes_none')
        : message('domain.dns.outdated.removes', { count: removed.length, records: listed.join(', ') }),
    changes: message('domain.dns.count', { count: changed.length }),
  });
}

interface DnsSubmission {
  domain: ParsedDomain;
  records: DnsRecord[];
  /**
   * The set this one replaces, as the store knew it when the prompt opened (null: none was sent through
   * HostOps). Shown as the difference; never sent.
   */
  earlier?: { set: EarlierSet; records: DnsRecord[] } | null;
}

/** Every parameter travels in the query string: a request the provider would refuse is refused here. */
function checkRequestSize({ hosting }: FormContext, { domain, records }: DnsSubmission): DnsSubmission {
  const bytes = (count: number) =>
    hosting.requestTargetBytes('submitDnsRecords', {
      domain: domain.ascii,
      records: records.slice(0, count),
    });
  const total = bytes(records.length);
  const max = hosting.maxUrlBytes;
  if (total <= max) return { domain, records };
  let fit = 0;
  let tooMany = records.length;
  while (tooMany - fit > 1) {
    const middle = Math.floor((fit + tooMany) / 2);
    if (bytes(middle) <= max) fit = middle;
    else tooMany = middle;
  }
  throw new InvalidOptionError(
    'records',
    message('domain.dns.too_large', { count: records.length, total: figure(total), max: figure(max) }),
    fit === 0 ? message('domain.dns.none_fits') : message('domain.dns.fit', { count: fit }),
  );
}

export const dnsChange = change<DnsSubmission>({
  tier: 'operator',
  operation: 'submitDnsRecords',
  autocomplete: suggestDomains,
  parse: (context) => {
    const domain = stringOption(context.interaction.options, 'domain', parseDomain);
    const records = optionalStringOption(context.interaction.options, 'records', parseDnsRecords);
    if (records) return checkRequestSize(context, { domain, records });
    return {
      modal: {
        title: cutText(context.t('domain.dns.modal_title', { domain: domain.unicode }), 45),
        fields: [
          {
            kind: 'text',
            id: 'records',
            label: context.t('domain.dns.modal_label'),
            description: context.t('domain.dns.modal_description'),
            paragraph: true,
            placeholder: 'www 3600 A 203.0.113.7\n@ MX 10 mail.example.com.',
            maxLength: 4000,
          },
        ],
      },
      state: { domain },
    };
  },
  submitForm: (state, values, context) =>
    checkRequestSize(context, {
      domain: state.domain as ParsedDomain,
      records: validated('records', values.records ?? '', parseDnsRecords),
    }),
  // What it replaces comes from the store: the provider's API cannot read a domain's records.
  precheck: async ({ earlier: _shownBefore, ...submission }, { store }) => {
    const last = await store.dnsSets.latest(submission.domain.ascii);
    return { ...submission, earlier: last ? earlierOf(last) : null };
  },
  // Confirmed or approved, the set shown is compared again with the domain's latest one: the provider
  // replaces the whole set, so a difference made against an older one would drop what was sent since.
  recheck: async (submission, { store }) => {
    const shown = submission.earlier?.set.changeId ?? null;
    const last = await store.dnsSets.latest(submission.domain.ascii);
    if (!last || last.changeId === shown) return undefined;
    const earlier = earlierOf(last);
    return { parameters: { ...submission, earlier }, why: outdated(submission, earlier) };
  },
  target: ({ domain }) => domain.ascii,
  preview: ({ domain, records, earlier }, t) => {
    const shown = recordPreview(records, t);
    const compared =
      earlier === undefined
        ? { fields: [] }
        : diffPreview(earlier && { set: earlier.set, diff: diffRecordSets(earlier.records, records) }, t);
    const files = [...(shown.files ?? []), ...(compared.files ?? [])];
    return {
      title: t('domain.dns.title'),
      fields: [
        { name: t('domain.dns.domain'), value: domainLabel(domain) },
        ...shown.fields,
        ...compared.fields,
      ],
      ...(files.length > 0 ? { files } : {}),
    };
  },
  dnsSet: ({ domain, records }) => ({ domain: domain.ascii, records: encodeDnsRecords(records) }),
  // Back to the set sent before the one this change sent.
  revert: async (record, { store }) => {
    const sent = await store.dnsSets.get(record.id);
    const before = sent && (await store.dnsSets.latest(sent.domain, sent));
    if (!before) return undefined;
    return { domain: parseDomain(before.domain), records: JSON.parse(before.records) as DnsRecord[] };
  },
  send: async ({ domain, records, earlier }, { hosting, call, changeId, requester, t, channelT }) => {
    await hosting.submitDnsRecords({ domain: domain.ascii, records }, call);
    const counts = (words: Translator) => words('domain.dns.count', { count: records.length });
    return {
      private: {
        embeds: [
          {
            title: t('domain.dns.done'),
            color: Colour.success,
            description: t('domain.dns.summary', { records: counts(t), domain: domainLabel(domain) }),
          },
        ],
      },
      public: {
        content: channelT('domain.dns.record', {
          requester,
          records: counts(channelT),
          domain: domainLabel(domain),
        }),
        // While an earlier set exists, the record offers going back to it (an ordinary, confirmed change).
        ...(earlier
          ? {
              components: [
                actionRow(
                  actionButton('revert', changeId, channelT('domain.dns.revert'), ButtonStyle.Secondary),
                ),
              ],
            }
          : {}),
      },
    };
  },
});

/** /domain records: the last set sent through HostOps for a domain, who sent it, when, and how it ended. */
export const dnsRecordsRead = read({
  tier: 'viewer',
  autocomplete: suggestDomains,
  parse: ({ interaction }) => stringOption(interaction.options, 'domain', parseDomain),
  target: (name) => name.ascii,
  run: async ({ store, t }, name) => {
    const last = await store.dnsSets.latest(name.ascii);
    if (!last) {
      return {
        embeds: [
          {
            title: t('domain.records.title', { domain: name.unicode }),
            color: Colour.neutral,
            description: t('domain.records.none', { domain: domainLabel(name) }),
          },
        ],
        data: dnsRecordsData(name, undefined),
      };
    }
    const records = JSON.parse(last.records) as DnsRecord[];
    const { fields, files } = recordPreview(records, t);
    return {
      embeds: [
        {
          title: cutText(t('domain.records.title', { domain: name.unicode }), 256),
          color: last.outcome === 'done' ? Colour.info : Colour.warning,
          description: t('domain.records.sent', {
            records: t('domain.dns.count', { count: records.length }),
            when: time(last.sentAt, TimestampStyles.LongDateTime),
            who: actorMention(last.sentById, last.sentByName),
            outcome: t(last.outcome === 'done' ? 'domain.dns.outcome.done' : 'domain.dns.outcome.unknown'),
          }),
          fields: fields.map(({ name: fieldName, value }) => ({ name: fieldName, value })),
        },
      ],
      ...(files ? { files } : {}),
      data: dnsRecordsData(name, last),
    };
  },
});
