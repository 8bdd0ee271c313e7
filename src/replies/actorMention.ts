import { userMention } from 'discord.js';
import { isConsoleActor } from '../text/consoleActor.js';
import { escapeUserText } from './escapeUserText.js';

/**
 * Who did something, as a message names them from a stored id and name: a Discord mention, or for a
 * console actor — whose id Discord would render as an unknown user — `console:<name>`, as the audit
 * trail shows it.
 */
export function actorMention(id: string, name: string | undefined): string {
  return isConsoleActor(id, name) ? escapeUserText(name ?? '', 60) : userMention(id);
}
