import { requireSupportedNode } from './node/requireSupportedNode.js';

// `npm run deploy-commands` (src/runDeployCommands.ts). The Node version is checked before anything else is
// loaded (src/node/).
requireSupportedNode('npm run deploy-commands');
const { runDeployCommands } = await import('./runDeployCommands.js');
await runDeployCommands();
