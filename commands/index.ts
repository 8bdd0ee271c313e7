import type { CHANGE_COMMANDS } from '../src/config.js';
import type { TranslatedPath } from '../src/i18n/commandTexts.js';
import { access } from './access.js';
import type { AuditedCommand } from './audit/auditedCommands.js';
import { audit } from './audit.js';
import { domain } from './domain.js';
import { help } from './help.js';
import { musicbot } from './musicbot.js';
import { panel } from './panel.js';
import { server } from './server.js';
import { watch } from './watch.js';

/** The one list of commands: the router serves exactly these and the deploy script registers exactly these. */
export const commands = [server, domain, musicbot, panel, help, audit, watch, access] as const;

type Module = (typeof commands)[number];
type PathOf<C extends string, K> = K extends '' ? C : `${C} ${K & string}`;

/** `server rdns`, `help`: every command path, or those whose handler is of one kind (a change). */
type PathsOf<M, Kind = unknown> = M extends {
  definition: { name: infer C extends string };
  subcommands: infer H;
}
  ? { [K in keyof H]: H[K] extends Kind ? PathOf<C, K> : never }[keyof H]
  : never;

/** `domain.expiry.within`, `domain.expiry.sort=expiry`: every name a translation gives. */
type OptionPaths<P extends string, O> = O extends readonly (infer E)[]
  ? E extends { name: infer N extends string }
    ?
        | `${P}.${N}`
        | (E extends { choices: readonly (infer C)[] }
            ? C extends { value: infer V extends string | number }
              ? `${P}.${N}=${V}`
              : never
            : never)
        | (E extends { options: infer S } ? OptionPaths<`${P}.${N}`, S> : never)
    : never
  : never;
type TextPathsOf<M> = M extends { definition: infer D extends { name: string } }
  ? D['name'] | OptionPaths<D['name'], D extends { options: infer O } ? O : never>
  : never;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// Three lists are written out where they are needed before any command module loads (APPROVAL_REQUIRED's
// schema, /audit's own `command` choices, the German texts). Each is held to the definitions here: a
// command added, renamed or removed without them fails the typecheck.
const listsAgree: [
  changes: Same<(typeof CHANGE_COMMANDS)[number], PathsOf<Module, { kind: 'change' }>>,
  audited: Same<AuditedCommand, PathsOf<Module>>,
  translated: Same<TranslatedPath, TextPathsOf<Module>>,
] = [true, true, true];
void listsAgree;
