import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { weir } from './cli-runner';

// Each CLI command starts a process through tsx, which takes seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

describe('weir quota', () => {
  let running: RunningBroker;
  beforeAll(async () => {
    running = await startBroker();
  });
  afterAll(async () => {
    await running.dispose();
  });

  const stored = () => running.broker.services.quotas.describe([], false);
  const quota = (...args: string[]) => weir(['quota', ...args, '--bootstrap-server', running.bootstrap]);

  it('sets, lists and deletes quotas, with <default> for the default entity', async () => {
    const set = await quota(
      'set',
      '--user',
      'alice',
      '--client-id',
      '<default>',
      '--quota',
      'producer_byte_rate=1048576',
      '--quota',
      'request_percentage=50',
    );
    expect(set.code).toBe(0);
    expect(stored()).toEqual([
      {
        entity: { user: 'alice', clientId: null },
        values: { producer_byte_rate: 1048576, request_percentage: 50 },
      },
    ]);
    const listed = await quota('list', '--user', 'alice');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('user=alice,client-id=<default>  producer_byte_rate  1048576');
    const deletedOne = await quota(
      'delete',
      '--user',
      'alice',
      '--client-id',
      '<default>',
      '--key',
      'request_percentage',
    );
    expect(deletedOne.code).toBe(0);
    expect(stored()[0]!.values).toEqual({ producer_byte_rate: 1048576 });
    const deletedAll = await quota('delete', '--user', 'alice', '--client-id', '<default>');
    expect(deletedAll.code).toBe(0);
    expect(stored()).toEqual([]);
  });

  it('reports what the broker refuses, naming the key, and changes nothing', async () => {
    const refused = await quota('set', '--client-id', 'c', '--quota', 'producer_bytes_rate=5');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('unknown quota key "producer_bytes_rate"');
    const usage = await quota('set', '--quota', 'producer_byte_rate=5');
    expect(usage.code).not.toBe(0);
    expect(usage.stderr).toContain('name the entity');
    expect(stored()).toEqual([]);
  });
});
