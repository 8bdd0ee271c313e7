import { requireSupportedNode } from './node/requireSupportedNode.js';

// The process entry (`npm start` runs its build): everything it does is in runMain, which the process
// tests run too. The Node version is checked before anything else is loaded (src/node/).
requireSupportedNode('npm start');
const { runMain } = await import('./main.js');
await runMain();
