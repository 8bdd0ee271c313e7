// `npm test` runs this first: on an unsupported Node it says so in the one line every entry point gives
// (src/node/) and stops, before the typecheck and lint would spend their time. Run by tsx, which runs on any
// Node that runs npm; the argument is the command to name, e.g. `npm test`.
import { requireSupportedNode } from '../src/node/requireSupportedNode.js';

requireSupportedNode(process.argv[2] ?? 'npm test');
