import { performance } from 'node:perf_hooks';
import { Client, type ClientOptions } from '@weir/protocol';

/** How many connections a connect measure made and how long it took. */
export interface ConnectRate {
  connections: number;
  seconds: number;
}

/**
 * One full connection as a new application makes it: a new Client that connects (TCP, the TLS
 * handshake if `options.tls`, ApiVersions, the SASL exchange if `options.sasl`) and asks for
 * metadata, then closes. Retries are off, so a refused login fails the measure instead of being
 * slowed down by the broker's failure delay.
 */
export async function connectOnce(bootstrap: string, options: Partial<ClientOptions>): Promise<void> {
  const client = new Client({
    ...options,
    bootstrapServers: [bootstrap],
    clientId: 'bench-auth',
    retry: { maxAttempts: 1 },
  });
  try {
    await client.connect();
  } finally {
    await client.close();
  }
}

/**
 * Connections per second: `concurrency` loops each open, use and close connections one after
 * another until `seconds` have passed or `maxConnections` have been started in all.
 */
export async function connectRate(
  bootstrap: string,
  options: Partial<ClientOptions>,
  concurrency: number,
  seconds: number,
  maxConnections: number,
): Promise<ConnectRate> {
  const startMs = performance.now();
  const endMs = startMs + seconds * 1000;
  let started = 0;
  let finished = 0;
  const loop = async () => {
    while (performance.now() < endMs && started < maxConnections) {
      started++;
      await connectOnce(bootstrap, options);
      finished++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { connections: finished, seconds: (performance.now() - startMs) / 1000 };
}
