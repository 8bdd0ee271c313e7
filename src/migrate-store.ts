import { requireSupportedNode } from './node/requireSupportedNode.js';

// `npm run migrate-store -- --from sqlite:data/hostops.db --to postgres://user:password@host:5432/hostops`
// (src/runMigrateStore.ts). The Node version is checked before anything else is loaded (src/node/).
requireSupportedNode('npm run migrate-store');
const { runMigrateStore } = await import('./runMigrateStore.js');
await runMigrateStore();
