// The slow flood (test/support/slowFlood.ts) in a process of its own, so its thousand sockets do not share
// the event loop of the fake Discord whose timestamps the bench reads. Started with fork(): `stop` over IPC
// ends it and sends back what its requests were answered.
import { startSlowFlood } from '../test/support/slowFlood.js';

const [url, connections] = process.argv.slice(2);
if (url === undefined || connections === undefined)
  throw new Error('usage: floodProcess <url> <connections>');
const flood = startSlowFlood({ url, connections: Number(connections) });
process.on('message', (message) => {
  if (message !== 'stop') return;
  void flood.stop().then(() => {
    process.send?.(
      { statuses: Object.fromEntries(flood.statuses), opened: flood.opened, unanswered: flood.unanswered },
      () => process.exit(0),
    );
  });
});
process.send?.('started');
