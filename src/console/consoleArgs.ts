import { message } from '../i18n/Translator.js';
import { CommandLineError } from './CommandLineError.js';
import { CONSOLE_TIERS, type ConsoleTier, isConsoleTier } from './consoleConfig.js';

/** Exit codes of a one-shot command, and of an interactive session (ok, notSent, interrupted). */
export const EXIT = {
  ok: 0,
  /** API error, unknown outcome, unexpected error. */
  failed: 1,
  /** Bad command line or invalid option value. */
  invalid: 2,
  /** Refused by a gate (tier, or approval needed). */
  refused: 3,
  /** A change that was not sent: no --yes, cancelled or expired, or a session ended while one waited. */
  notSent: 4,
  /** Invalid configuration, as for the bot. */
  config: 78,
  /** An interactive session ended by Ctrl-C (128 + SIGINT, as a shell reports it). */
  interrupted: 130,
} as const;

/** A Discord id, as `--as` and `--roles` take them. */
const DISCORD_ID = /^\d{17,20}$/;

export interface ConsoleArgs {
  /** A tier, or a Discord user id to act as (with `roles`), so grants can be tried without Discord. */
  as: ConsoleTier | string;
  /** Role ids held besides the tier's, or the only ones of a user `as` names. */
  roles: string[];
  yes: boolean;
  json: boolean;
  verbose: boolean;
  help: boolean;
  noColour: boolean;
  /** One-shot: the command to run; interactive when absent. */
  command: string | undefined;
  /** One-shot: revert the last DNS change of this domain (`--revert example.com`). */
  revert: string | undefined;
  /** One-shot: where to write the file the answer attaches (`--out hostops-expiry.ics`). */
  out: string | undefined;
}

/** The console's command line. Throws CommandLineError for an unknown flag or tier. */
export function parseArgs(argv: readonly string[]): ConsoleArgs {
  const args: ConsoleArgs = {
    as: 'viewer',
    roles: [],
    yes: false,
    json: false,
    verbose: false,
    help: false,
    noColour: false,
    command: undefined,
    revert: undefined,
    out: undefined,
  };
  const words: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (arg === '--as' || arg.startsWith('--as=')) {
      const value = arg === '--as' ? argv[++index] : arg.slice('--as='.length);
      if (value === undefined || (!isConsoleTier(value) && !DISCORD_ID.test(value))) {
        throw new CommandLineError(message('console.args.as', { tiers: CONSOLE_TIERS.join(', ') }));
      }
      args.as = value;
    } else if (arg === '--roles' || arg.startsWith('--roles=')) {
      const value = arg === '--roles' ? argv[++index] : arg.slice('--roles='.length);
      const ids = (value ?? '').split(',').map((id) => id.trim());
      if (value === undefined || ids.some((id) => !DISCORD_ID.test(id))) {
        throw new CommandLineError(message('console.args.roles'));
      }
      args.roles = [...new Set([...args.roles, ...ids])];
    } else if (arg === '--revert' || arg.startsWith('--revert=')) {
      const value = arg === '--revert' ? argv[++index] : arg.slice('--revert='.length);
      if (value === undefined || value === '' || value.startsWith('-')) {
        throw new CommandLineError(message('console.args.revert'));
      }
      args.revert = value;
    } else if (arg === '--out' || arg.startsWith('--out=')) {
      const value = arg === '--out' ? argv[++index] : arg.slice('--out='.length);
      if (value === undefined || value === '' || value.startsWith('-')) {
        throw new CommandLineError(message('console.args.out'));
      }
      args.out = value;
    } else if (arg === '--yes' || arg === '-y') args.yes = true;
    else if (arg === '--json') args.json = true;
    else if (arg === '--verbose' || arg === '-v') args.verbose = true;
    else if (arg === '--no-color' || arg === '--no-colour') args.noColour = true;
    else if (arg === '--help' || arg === '-h') args.help = true;
    else if (arg === '--') continue;
    else if (arg.startsWith('--')) {
      throw new CommandLineError(
        message('console.args.unknown_flag', { flag: arg, usage: message('console.usage') }),
      );
    }
    // Words the shell split: put quotes back around those that held spaces.
    else words.push(words.length > 0 && /\s/.test(arg) && !/["']/.test(arg) ? quoteWord(arg) : arg);
  }
  if (words.length > 0) args.command = words.join(' ');
  if (args.revert !== undefined && args.command !== undefined) {
    throw new CommandLineError(message('console.args.revert_or_command'));
  }
  if (args.out !== undefined && args.command === undefined) {
    throw new CommandLineError(message('console.args.out'));
  }
  return args;
}

/**
 * The console's flags written before npm's `--` are npm's: `npm run console --as operator "/x"` hands the
 * console `operator /x`, and `--yes` or `--json` vanish into npm's own settings (npm_config_yes,
 * npm_config_json). Says so rather than "unknown command /operator" or a change that was quietly not sent.
 */
export function flagsLostToNpm(
  args: ConsoleArgs,
  env: Record<string, string | undefined>,
): CommandLineError | undefined {
  const first = /^\/?(\S+)/.exec(args.command ?? '')?.[1];
  if (first !== undefined && CONSOLE_TIERS.includes(first as ConsoleTier)) {
    return new CommandLineError(message('console.args.tier_as_command', { word: first }));
  }
  if (env.npm_lifecycle_event !== 'console') return undefined;
  const taken = [
    env.npm_config_yes === 'true' && !args.yes ? '--yes' : undefined,
    env.npm_config_json === 'true' && !args.json ? '--json' : undefined,
  ].filter((flag) => flag !== undefined);
  return taken.length > 0
    ? new CommandLineError(message('console.args.npm_took', { flags: taken.join(', ') }))
    : undefined;
}

function quoteWord(word: string): string {
  const named = /^([a-z_]+):(.*)$/s.exec(word);
  return named ? `${named[1]}:"${named[2]}"` : `"${word}"`;
}
