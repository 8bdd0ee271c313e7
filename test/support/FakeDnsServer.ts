// A small authoritative DNS responder over UDP on 127.0.0.1, for the forward check of reverse DNS: each
// name answers with A records, NXDOMAIN, an empty answer (NODATA), or nothing at all (a silent server).
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

export type DnsBehaviour = { a: string[] } | 'nxdomain' | 'nodata' | 'silent';

export class FakeDnsServer {
  readonly queries: { name: string; type: number }[] = [];
  readonly #names = new Map<string, DnsBehaviour>();
  #fallback: DnsBehaviour = 'nxdomain';

  private constructor(
    private readonly socket: Socket,
    readonly port: number,
  ) {}

  static async start(): Promise<FakeDnsServer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const server = new FakeDnsServer(socket, socket.address().port);
    socket.on('message', (message, remote) => server.#answer(message, remote));
    return server;
  }

  /** `127.0.0.1:<port>`, as DNS_SERVERS takes it. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  set(name: string, behaviour: DnsBehaviour): void {
    this.#names.set(name.toLowerCase().replace(/\.$/, ''), behaviour);
  }

  /** What names without an entry get (NXDOMAIN unless set). */
  setFallback(behaviour: DnsBehaviour): void {
    this.#fallback = behaviour;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  #answer(message: Buffer, remote: RemoteInfo): void {
    if (message.length < 12) return;
    const labels: string[] = [];
    let at = 12;
    while (at < message.length) {
      const length = message[at] ?? 0;
      at += 1;
      if (length === 0) break;
      labels.push(message.subarray(at, at + length).toString('ascii'));
      at += length;
    }
    const type = message.readUInt16BE(at);
    const questionEnd = at + 4;
    const name = labels.join('.').toLowerCase();
    this.queries.push({ name, type });
    const behaviour = this.#names.get(name) ?? this.#fallback;
    if (behaviour === 'silent') return;
    const addresses = typeof behaviour === 'object' && type === 1 ? behaviour.a : [];
    const header = Buffer.alloc(12);
    header.writeUInt16BE(message.readUInt16BE(0), 0);
    const recursionDesired = (message[2] ?? 0) & 0x01;
    header[2] = 0x84 | recursionDesired; // QR, AA, RD as asked
    header[3] = 0x80 | (behaviour === 'nxdomain' ? 3 : 0); // RA, RCODE
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(addresses.length, 6);
    const answers = addresses.map((address) => {
      const record = Buffer.alloc(16);
      record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      record.writeUInt16BE(1, 2); // A
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(4, 10);
      address.split('.').forEach((octet, index) => {
        record[12 + index] = Number(octet);
      });
      return record;
    });
    const reply = Buffer.concat([header, message.subarray(12, questionEnd), ...answers]);
    this.socket.send(reply, remote.port, remote.address);
  }
}
