import { createServer, type AddressInfo } from 'node:net';

/** A loopback port nothing listens on (taken, then given back): for a server to listen on, or a connection refused. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
