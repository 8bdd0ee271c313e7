import type { CommandModule } from '../src/discord/CommandModule.js';
import { audit } from './audit.js';
import { domain } from './domain.js';
import { help } from './help.js';
import { musicbot } from './musicbot.js';
import { panel } from './panel.js';
import { server } from './server.js';
import { watch } from './watch.js';

/** The one list of commands: the router serves exactly these and the deploy script registers exactly these. */
export const commands: readonly CommandModule[] = [server, domain, musicbot, panel, help, audit, watch];
