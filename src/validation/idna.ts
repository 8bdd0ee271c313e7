// Internationalised domain names (UTS #46) through tr46, the WHATWG URL Standard's reference
// implementation. Node's url.domainToASCII answered differently by runtime (`xn--zz.com`, invalid
// Punycode, is refused on Node 20 and passed through on Node 24), and what HostOps accepts must not
// change with the Node it runs on: tr46 brings its own Unicode tables and Punycode decoder.
import { toASCII, toUnicode } from 'tr46';

/**
 * The URL Standard's options (nontransitional: `ß` stays `ß`; the Bidi and joiner rules on; `_` allowed,
 * which DNS record names need), except that invalid Punycode is an error rather than passed through.
 * Hyphen placement and the remaining ASCII are left to the callers, which name the label at fault.
 */
const OPTIONS = {
  checkBidi: true,
  checkJoiners: true,
  checkHyphens: false,
  useSTD3ASCIIRules: false,
  transitionalProcessing: false,
  ignoreInvalidPunycode: false,
} as const;

/** The ASCII (Punycode) form of a name, e.g. `bücher.de` → `xn--bcher-kva.de`; undefined if IDNA refuses it. */
export function domainToAscii(name: string): string | undefined {
  return toASCII(name, OPTIONS) ?? undefined;
}

/** The Unicode form of an ASCII name, e.g. `xn--bcher-kva.de` → `bücher.de`; the name itself if it has none. */
export function domainToUnicode(ascii: string): string {
  const { domain, error } = toUnicode(ascii, OPTIONS);
  return error ? ascii : domain;
}
