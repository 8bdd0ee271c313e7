import { createHash } from 'node:crypto';

const PREFIX = 'console:';

/** Who acts in the console as the journal, the audit trail and the DNS memory record them. */
export interface Actor {
  id: string;
  name: string;
}

/**
 * The console's actor for an OS user: the name `console:<os user>`, and a stable made-up user id derived
 * from it (18 digits, so `/audit user:` takes it). Discord knows no user by that id: whatever names this
 * actor shows the name instead (actorMention).
 */
export function consoleActor(osUser: string): Actor {
  const hex = createHash('sha256').update(`hostops-console:${osUser}`).digest('hex').slice(0, 14);
  const id = (10n ** 17n + (BigInt(`0x${hex}`) % 10n ** 17n)).toString();
  return { id, name: `${PREFIX}${osUser}` };
}

/**
 * Whether a stored id and name are a console actor's: the name says `console:` and the id is the one
 * derived from it. A Discord user cannot be taken for one (usernames hold no `:`, and ids are Discord's).
 */
export function isConsoleActor(id: string, name: string | undefined): boolean {
  return name?.startsWith(PREFIX) === true && consoleActor(name.slice(PREFIX.length)).id === id;
}
