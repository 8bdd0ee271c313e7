import { maskSecret } from '../changes/maskSecret.js';
import type { CommandModule } from '../discord/CommandModule.js';
import { LOCALES } from '../i18n/locales.js';
import { type Placement, placeValues, resolvePath, spelling } from './resolvePath.js';
import { nameAndValue, type Token, tokenize } from './tokenize.js';

/** An option's name as typed in any language the console understands, English included. */
const anySpelling = spelling(LOCALES);

/**
 * What a licence key looks like, for a value no option can be told for (a mistyped command, an option name
 * that is none): eight or more characters without spaces, letters and digits both, and nothing an address,
 * a host or a domain name has (`.`, `:`, `@`, `/`) — such as ABCD-1234-EFGH.
 */
const KEY_LIKE = /^(?=.*\p{L})(?=.*\p{N})[^\s.:@/]{8,}$/u;

/** The change subcommands' secret options (ChangeSpec `secrets`), by where their texts are (`panel.bind.license`). */
function secretOptions(commands: readonly CommandModule[]): { name: string; key: string }[] {
  return commands.flatMap((module) =>
    Object.entries(module.subcommands).flatMap(([subcommand, handler]) => {
      if (handler.kind !== 'change') return [];
      const path = subcommand === '' ? module.definition.name : `${module.definition.name}.${subcommand}`;
      return (handler.secrets ?? []).map((name) => ({ name, key: `${path}.${name}` }));
    }),
  );
}

/** A mask the line still splits as one value: quoted when the last characters kept would split it. */
function maskedValue(value: string): string {
  const mask = maskSecret(value);
  return /[\s"'\\]/.test(mask) ? `"${mask.replace(/["\\]/g, '\\$&')}"` : mask;
}

/**
 * A typed line as the console's history may keep it (its file and the up-arrow list), whether it parses or
 * not: every value that is — or may be — a secret option's (a licence key) replaced by its mask. A value
 * is masked when it sets a secret option by name (in any language) or by position; when its command has a
 * secret option and the value sets none of its other options (a mistyped option name, one value too
 * many); when it is typed after any secret option's name, whatever the command; and when no option can be
 * told for it and it looks like a key. What is kept otherwise is as typed, so a typo can be fixed with the
 * up arrow.
 */
export function historyLine(line: string, commands: readonly CommandModule[]): string {
  const tokens = tokenize(line, true);
  const secrets = secretOptions(commands);
  const secretName = (typed: string) => secrets.some(({ name, key }) => anySpelling(name, key, typed));
  const masked: { token: Token; name: string | undefined; value: string }[] = [];
  const rest = [...tokens];
  let placed: Placement[];
  let secretHere: readonly string[] = [];
  try {
    const command = resolvePath(
      rest,
      commands.map((c) => c.definition),
      anySpelling,
    );
    const handler = commands.find((c) => c.definition.name === command.definition.name)?.subcommands[
      command.subcommand ?? ''
    ];
    secretHere = handler?.kind === 'change' ? (handler.secrets ?? []) : [];
    placed = placeValues(rest, command, anySpelling);
  } catch {
    // No command path: every word after the first, as a value no option can be told for.
    placed = tokens.slice(1).map((token): Placement => {
      const pair = nameAndValue(token);
      return {
        token,
        ...(pair ? { name: pair.raw, value: pair.value } : { value: token.text }),
        problem: 'no_option',
      };
    });
  }
  for (const { token, name, value, option, problem } of placed) {
    const unplaced = option === undefined || problem !== undefined;
    const secret =
      (option !== undefined && secretHere.includes(option.name)) ||
      (secretHere.length > 0 && unplaced) ||
      (name !== undefined && secretName(name.toLowerCase())) ||
      (unplaced && KEY_LIKE.test(value));
    if (secret && value !== '') masked.push({ token, name, value });
  }
  let kept = line;
  for (const { token, name, value } of masked.reverse()) {
    const shown = name === undefined ? maskedValue(value) : `${name}:${maskedValue(value)}`;
    kept = kept.slice(0, token.start) + shown + kept.slice(token.end);
  }
  return kept;
}
