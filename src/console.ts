import { requireSupportedNode } from './node/requireSupportedNode.js';

// The console: the bot's commands in a terminal, without Discord (see src/console/). The Node version is
// checked before anything else is loaded (src/node/).
requireSupportedNode('npm run console');
const { runConsole } = await import('./console/runConsole.js');
const code = await runConsole(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
process.exitCode = code;
// Sockets of the store or the API pool must not keep a finished session alive.
setTimeout(() => process.exit(code), 200).unref();
