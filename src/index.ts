import { runMain } from './main.js';

// The process entry (`npm start` runs its build): everything it does is in runMain, which the process
// tests run too.
await runMain();
