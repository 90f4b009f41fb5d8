import { createServer, type Server } from 'node:net';

/**
 * `count` distinct TCP ports the kernel just handed out as free on `host`, for servers that cannot
 * take port 0 and report what they bound (etcd), or whose ports must survive a restart (a cluster
 * broker is restarted on the ports it had). All of them are held at once before any is released,
 * so they differ from each other; another process may still take one between the release and the
 * server's bind, so callers retry with fresh ports when the server reports the address in use
 * (`isAddressInUse`).
 */
export async function freePorts(host: string, count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listening(host));
    return servers.map((server) => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error(`no TCP port bound on ${host}`);
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

function listening(host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host, port: 0, exclusive: true }, () => resolve(server));
  });
}

/** Where fixtures get their ports: `freePorts`, or a stand-in that forces a collision in a test. */
export type PortSource = (host: string, count: number) => Promise<number[]>;

/** Whether a server's output says it could not bind because the address was taken. */
export function isAddressInUse(output: string): boolean {
  return /EADDRINUSE|address already in use/i.test(output);
}

/**
 * A port source whose first answer includes `takenPort` (a port the test holds) and whose later
 * answers are free ports: a collision at the first start, for the tests of the fixtures' retry.
 */
export function portsCollidingOnce(takenPort: number): PortSource & { calls: number } {
  const source = async (host: string, count: number) => {
    source.calls += 1;
    if (source.calls > 1) return freePorts(host, count);
    return [takenPort, ...(await freePorts(host, count - 1))];
  };
  source.calls = 0;
  return source;
}
