// Reference "bare HTTP": the smallest interactions endpoint. node:http, the request's Ed25519 signature
// verified with node:crypto (as Discord requires), PING answered, every other interaction answered at once
// with a fixed reply as the HTTP response; no discord.js, no API call, no store. The floor for HTTP delivery.
import { createPublicKey, verify } from 'node:crypto';
import { createServer } from 'node:http';

const key = createPublicKey({
  key: Buffer.concat([
    Buffer.from('302a300506032b6570032100', 'hex'),
    Buffer.from(process.env.DISCORD_PUBLIC_KEY ?? '', 'hex'),
  ]),
  format: 'der',
  type: 'spki',
});

createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const signature = req.headers['x-signature-ed25519'];
    const timestamp = req.headers['x-signature-timestamp'];
    const signed =
      typeof signature === 'string' &&
      typeof timestamp === 'string' &&
      verify(null, Buffer.concat([Buffer.from(timestamp), body]), key, Buffer.from(signature, 'hex'));
    if (!signed) {
      res.writeHead(401).end();
      return;
    }
    const { type } = JSON.parse(body.toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(type === 1 ? '{"type":1}' : '{"type":4,"data":{"content":"ok"}}');
  });
}).listen(Number(process.env.INTERACTIONS_PORT), process.env.INTERACTIONS_HOST ?? '127.0.0.1');

// A clean exit on SIGTERM, so `--cpu-prof` can write its profile when the bench stops the process.
process.once('SIGTERM', () => process.exit(0));
