import { describe, expect, it } from 'vitest';
import type { ConfigFlags } from './flag-overrides';
import { type LoadConfigResult, loadConfig } from './load-config';

function load(set: string[], files: Record<string, string> = {}): Promise<LoadConfigResult> {
  const flags: ConfigFlags = { set };
  return loadConfig({
    flags,
    env: {},
    readFile: async (path) => {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return text;
    },
  });
}

async function errorsOf(result: Promise<LoadConfigResult>) {
  const loaded = await result;
  if (loaded.ok) throw new Error('expected the configuration to be rejected');
  return loaded.errors.map(({ key, reason }) => ({ key, reason }));
}

describe('inter-broker authentication settings', () => {
  it('defaults to the internal listener token and a 10 s deadline', async () => {
    const loaded = await load([]);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    expect(loaded.config.cluster).toMatchObject({
      interBrokerAuthentication: 'token',
      interBrokerRequestTimeoutMs: 10_000,
    });
  });

  it('needs a secret file for secret authentication', async () => {
    expect(await errorsOf(load(['cluster.interBrokerAuthentication=secret']))).toEqual([
      {
        key: 'cluster.secretFile',
        reason: expect.stringContaining('required when interBrokerAuthentication is secret'),
      },
    ]);
  });

  it('reads the secret file at load: unreadable and too short are named errors, without the secret', async () => {
    const set = ['cluster.interBrokerAuthentication=secret', 'cluster.secretFile=/etc/weir/cluster.secret'];
    expect(await errorsOf(load(set))).toEqual([
      { key: 'cluster.secretFile', reason: 'cannot read /etc/weir/cluster.secret (ENOENT)' },
    ]);
    const short = await errorsOf(load(set, { '/etc/weir/cluster.secret': 'tiny-secret\n' }));
    expect(short).toEqual([
      { key: 'cluster.secretFile', reason: expect.stringContaining('at least 16 characters') },
    ]);
    expect(JSON.stringify(short)).not.toContain('tiny-secret');
    const loaded = await load(set, { '/etc/weir/cluster.secret': 'a-long-enough-cluster-secret\n' });
    expect(loaded.ok).toBe(true);
  });

  it('needs the internal listener to have TLS for certificate authentication', async () => {
    expect(await errorsOf(load(['cluster.interBrokerAuthentication=certificate']))).toEqual([
      {
        key: 'listeners.internal.tls',
        reason: expect.stringContaining('required when cluster.interBrokerAuthentication is certificate'),
      },
    ]);
  });
});
