import { translationOf } from '../defineMessages.js';

/** Grants and their patterns (/access, src/access), and the refusals they explain. */
export const en = {
  'access.pattern.expected':
    'a pattern such as `shop.example`, `*.acme.example`, `server:42`, `server:100-199`, `ip:203.0.113.0/24`, `ip:2001:db8::/32` or `*`',
  'access.pattern.empty': 'the pattern is empty',
  'access.pattern.too_long': 'pattern {input} is {length} characters long, at most {max}',
  'access.pattern.wildcard':
    '{input}: `*` stands only alone or as the whole first label, as in `*.acme.example`',
  'access.pattern.domain': '{input} is not a domain pattern: {problem}',
  'access.pattern.mixed': '{input}: label {label} mixes scripts and could pass for another name',
  'access.pattern.lookalike':
    '{input}: label {label} is written in letters that look like Latin ones and could pass for another name',
  'access.pattern.server':
    '{input} is not a server or a range of servers: write `server:42` or `server:100-199`',
  'access.pattern.server_range': '{input}: the range ends before it starts',
  'access.pattern.cidr': '{input} is not an address range: write `ip:203.0.113.0/24` or `ip:2001:db8::/32`',
  'access.pattern.cidr_host_bits': '{input} has bits set after its prefix; did you mean {suggestion}?',
} as const;

export const de = translationOf(en)({
  'access.pattern.expected':
    'ein Muster wie `shop.example`, `*.acme.example`, `server:42`, `server:100-199`, `ip:203.0.113.0/24`, `ip:2001:db8::/32` oder `*`',
  'access.pattern.empty': 'das Muster ist leer',
  'access.pattern.too_long': 'Muster {input} ist {length} Zeichen lang, höchstens {max}',
  'access.pattern.wildcard':
    '{input}: `*` steht nur allein oder als ganzes erstes Label, wie in `*.acme.example`',
  'access.pattern.domain': '{input} ist kein Domain-Muster: {problem}',
  'access.pattern.mixed':
    '{input}: Label {label} mischt Schriften und könnte für einen anderen Namen gehalten werden',
  'access.pattern.lookalike':
    '{input}: Label {label} besteht aus Zeichen, die wie lateinische aussehen, und könnte für einen anderen Namen gehalten werden',
  'access.pattern.server':
    '{input} ist kein Server und kein Server-Bereich: schreib `server:42` oder `server:100-199`',
  'access.pattern.server_range': '{input}: der Bereich endet, bevor er beginnt',
  'access.pattern.cidr':
    '{input} ist kein Adressbereich: schreib `ip:203.0.113.0/24` oder `ip:2001:db8::/32`',
  'access.pattern.cidr_host_bits': '{input} hat Bits nach dem Präfix gesetzt; meintest du {suggestion}?',
});
