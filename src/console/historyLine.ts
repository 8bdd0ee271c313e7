import { maskSecret } from '../changes/maskSecret.js';
import type { CommandModule } from '../discord/CommandModule.js';
import type { Locale } from '../i18n/locales.js';
import { parseCommandLine } from './parseCommandLine.js';

/**
 * A typed line as the console's history may keep it (its file and the up-arrow list): each value of an
 * option the command declares secret (a licence key) replaced by its mask; undefined — keep nothing —
 * when a secret cannot be found as typed (quoted with escapes, say). A line that does not parse carries
 * no known secret and is kept as typed, so a typo can be fixed with the up arrow.
 */
export function historyLine(
  line: string,
  commands: readonly CommandModule[],
  locale: Locale,
): string | undefined {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(
      line,
      commands.map((c) => c.definition),
      locale,
    );
  } catch {
    return line;
  }
  const module = commands.find((c) => c.definition.name === parsed.commandName);
  const handler = module?.subcommands[parsed.subcommand ?? ''];
  const secrets: readonly string[] = handler?.kind === 'change' ? (handler.secrets ?? []) : [];
  let kept = line;
  for (const option of parsed.options) {
    if (!secrets.includes(option.name) || typeof option.value !== 'string' || option.value === '') continue;
    if (!kept.includes(option.value)) return undefined;
    kept = kept.split(option.value).join(maskSecret(option.value));
  }
  return kept;
}
