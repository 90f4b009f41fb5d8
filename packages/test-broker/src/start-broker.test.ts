import { access } from 'node:fs/promises';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningBroker, startBroker, TEST_INTERNAL_TOKEN } from './start-broker';
import { temporaryDirectory } from './temporary-directory';

/** Resolves true when a TCP connection to the address opens, false when it is refused. */
function accepts(address: string): Promise<boolean> {
  const [host, port] = address.split(':');
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe('startBroker', () => {
  let running: RunningBroker | undefined;
  afterEach(async () => {
    await running?.dispose();
    running = undefined;
  });

  it('listens on loopback ephemeral ports with a temporary data directory that dispose removes', async () => {
    running = await startBroker();
    const { bootstrap, internalBootstrap, dataDir } = running;
    expect(bootstrap).toBe(`127.0.0.1:${running.port}`);
    expect(running.port).toBeGreaterThan(0);
    expect(internalBootstrap).not.toBe(bootstrap);
    expect(running.internalToken).toBe(TEST_INTERNAL_TOKEN);
    expect(await accepts(bootstrap)).toBe(true);
    expect(await accepts(internalBootstrap)).toBe(true);
    expect(await exists(dataDir)).toBe(true);

    await running.dispose();
    running = undefined;
    expect(await accepts(bootstrap)).toBe(false);
    expect(await exists(dataDir)).toBe(false);
  });

  it('keeps a data directory it was given, so a test can restart a broker on it', async () => {
    const directory = await temporaryDirectory('weir-test-broker-');
    try {
      const first = await startBroker({}, directory.path);
      await first.dispose();
      expect(await exists(directory.path)).toBe(true);
      running = await startBroker({}, directory.path);
      expect(running.dataDir).toBe(directory.path);
      await running.dispose();
      running = undefined;
    } finally {
      await directory.cleanup();
    }
  });

  it('throws when the address or token of a disabled internal listener is read', async () => {
    running = await startBroker({ listeners: { internal: { enabled: false } } });
    expect(() => running?.internalBootstrap).toThrow(/internal listener .* is disabled/);
    expect(() => running?.internalToken).toThrow(/internal listener .* is disabled/);
  });
});
