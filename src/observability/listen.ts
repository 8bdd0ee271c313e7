import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on `host:port`; resolves with the bound port (an ephemeral one when `port` is 0). */
export async function listen(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** Stops listening and closes every connection, idle or not. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
