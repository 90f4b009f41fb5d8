import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A started HTTP server: the port it bound (useful when asked for port 0) and a way to stop it. */
export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Binds an HTTP server and resolves once it listens, or rejects with the bind error (for example
 * EADDRINUSE), so a caller never believes a port is served when it is not.
 */
export async function listen(server: Server, host: string, port: number): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return { port: address.port, close: () => closeServer(server) };
}

/**
 * Stops accepting connections and drops idle keep-alive ones, which would otherwise hold `close`
 * open for the keep-alive timeout; requests being answered still finish.
 */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}
