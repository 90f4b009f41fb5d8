import { Client, InternalAdmin, Producer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, expectExitCode, weir } from './cli-runner';
import { createCompactedTopic } from './compaction-fixtures';
import { pollUntil } from './group-fixtures';

/** `weir topic …` against a real broker, through the real binary. */
describe('weir topic', () => {
  let broker: RunningBroker;
  const cli = (...args: string[]) => weir(['-b', broker.bootstrap, ...args]);

  beforeAll(async () => {
    // The cleaner looks again 100 ms after finding nothing due, so a compacted topic is cleaned soon.
    broker = await startBroker({ topics: { autoCreateEnable: false }, log: { cleaner: { backoffMs: 100 } } });
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  it('creates, lists, describes, alters and deletes a topic', async () => {
    const created = await cli(
      'topic',
      'create',
      'orders',
      '--partitions',
      '3',
      '--config',
      'retention.ms=3600000',
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toBe('Created topic "orders" with 3 partition(s) of 1 replica(s).\n');

    const listed = await cli('topic', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe('NAME    PARTITIONS\norders  3\n');

    const described = await cli('topic', 'describe', 'orders');
    expect(described.code).toBe(0);
    expect(described.stdout).toBe(
      [
        'Topic: orders  Partitions: 3',
        'PARTITION  LEADER  REPLICAS  ISR  LOG-START  LOG-END',
        '0          0       0         0    0          0',
        '1          0       0         0    0          0',
        '2          0       0         0    0          0',
        'Configs (not default):',
        '  retention.ms=3600000',
        '',
      ].join('\n'),
    );

    const altered = await cli(
      'topic',
      'alter',
      'orders',
      '--config',
      'max.message.bytes=2048',
      '--delete-config',
      'retention.ms',
      '--partitions',
      '5',
    );
    expect(altered).toMatchObject({ code: 0, stderr: '' });
    const after = await cli('topic', 'describe', 'orders');
    expect(after.stdout).toContain('Partitions: 5');
    expect(after.stdout).toMatch(/^4 {10}0 {7}0 {9}0 {4}0 {10}0$/m);
    expect(after.stdout).toContain('Configs (not default):\n  max.message.bytes=2048\n');
    expect(after.stdout).not.toContain('retention.ms');

    const deleted = await cli('topic', 'delete', 'orders', '--yes');
    expect(deleted).toMatchObject({ code: 0, stdout: 'Deleted topic "orders".\n' });
    expect((await cli('topic', 'list')).stdout).toBe('NAME  PARTITIONS\n');
  }, 60_000);

  it('checks without creating under --validate-only', async () => {
    const checked = await cli('topic', 'create', 'dry', '--partitions', '2', '--validate-only');
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain('validate only');
    expect((await cli('topic', 'list')).stdout).not.toContain('dry');
  }, 30_000);

  it('refuses to delete without --yes when stdin is a pipe, and keeps the topic', async () => {
    expectExitCode(await cli('topic', 'create', 'keep'), 0);
    const refused = await weir(['-b', broker.bootstrap, 'topic', 'delete', 'keep'], { input: 'keep\n' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await cli('topic', 'list')).stdout).toContain('keep');
  }, 30_000);

  it('exits 1 with the Kafka error name when the broker refuses', async () => {
    const missing = await cli('topic', 'describe', 'no-such-topic');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: UNKNOWN_TOPIC_OR_PARTITION: .*no-such-topic/m);

    expectExitCode(await cli('topic', 'create', 'twice'), 0);
    const again = await cli('topic', 'create', 'twice');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: TOPIC_ALREADY_EXISTS: /m);

    const badConfig = await cli('topic', 'alter', 'twice', '--config', 'retention.ms=soon');
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toMatch(/^error: INVALID_CONFIG: .*retention\.ms/m);
  }, 30_000);

  it('passes --replication-factor to the broker, which refuses more replicas than live brokers', async () => {
    const one = await cli('topic', 'create', 'one-replica', '--replication-factor', '1');
    expect(one).toMatchObject({ code: 0, stderr: '' });
    expect(one.stdout).toBe('Created topic "one-replica" with 1 partition(s) of 1 replica(s).\n');

    const three = await cli('topic', 'create', 'three-replicas', '--replication-factor', '3');
    expect(three.code).toBe(1);
    expect(three.stderr).toMatch(
      /^error: INVALID_REPLICATION_FACTOR: .*replication factor 3 is larger than the 1 live broker\b/m,
    );
    expect((await cli('topic', 'list')).stdout).not.toContain('three-replicas');

    const zero = await cli('topic', 'create', 'no-replicas', '--replication-factor', '0');
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain("option '--replication-factor <n>' argument '0' is invalid");
  }, 30_000);

  it('exits 2 naming the flag for bad arguments', async () => {
    const partitions = await cli('topic', 'create', 'x', '--partitions', 'many');
    expect(partitions.code).toBe(2);
    expect(partitions.stderr).toContain("option '--partitions <n>' argument 'many' is invalid");

    const config = await cli('topic', 'create', 'x', '--config', 'novalue');
    expect(config.code).toBe(2);
    expect(config.stderr).toContain("option '--config <key=value>' argument 'novalue' is invalid");

    const unknown = await cli('topic', 'list', '--colour');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--colour'");

    const nothing = await cli('topic', 'alter', 'x');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('--config, --delete-config or --partitions');

    const server = await weir(['topic', 'list', '-b', 'localhost']);
    expect(server.code).toBe(2);
    expect(server.stderr).toContain('--bootstrap-server: "localhost" is not host:port');
  }, 30_000);

  it('takes the bootstrap server from WEIR_BOOTSTRAP_SERVER when the flag is absent', async () => {
    expectExitCode(await cli('topic', 'create', 'from-env'), 0);
    const listed = await weir(['topic', 'list'], {
      env: cleanEnv({ WEIR_BOOTSTRAP_SERVER: broker.bootstrap }),
    });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('from-env');
    // It is the client commands' variable: the broker's configuration must not refuse it.
    const config = await weir(['config', 'print'], {
      env: cleanEnv({ WEIR_BOOTSTRAP_SERVER: broker.bootstrap }),
    });
    expect(config.code).toBe(0);
  }, 30_000);

  it("shows a compacted topic's log cleaner state through the internal listener", async () => {
    const client = new Client({ bootstrapServers: [broker.bootstrap] });
    const internalClient = new Client({
      bootstrapServers: [broker.internalBootstrap],
      sasl: { mechanism: 'WEIR-TOKEN', token: broker.internalToken },
    });
    try {
      await createCompactedTopic(client, 'prices');
      // 200 values of 5 keys in batches of 5: every closed segment holds values a later one supersedes.
      const producer = new Producer(client);
      for (let batch = 0; batch < 40; batch++) {
        await producer.send({
          topic: 'prices',
          messages: Array.from({ length: 5 }, (_, index) => ({
            key: `key-${index}`,
            value: `value-${batch * 5 + index}`,
          })),
        });
      }
      await producer.close();
      const internal = new InternalAdmin(internalClient);
      await pollUntil(async () => {
        const [state] = await internal.describeLogCleaner(['prices']);
        return state !== undefined && state.removedBytesTotal > 0n ? state : undefined;
      }, 'the cleaner to clean prices-0');
    } finally {
      await client.close();
      await internalClient.close();
    }

    const plain = await cli('topic', 'describe', 'prices');
    expect(plain).toMatchObject({ code: 0, stderr: '' });
    expect(plain.stdout).toContain('  cleanup.policy=compact\n');
    expect(plain.stdout).toMatch(/^Log cleaner: give --internal <host:port> /m);

    const described = await weir([
      'topic',
      'describe',
      'prices',
      '--internal',
      broker.internalBootstrap,
      '--token',
      broker.internalToken,
    ]);
    expect(described).toMatchObject({ code: 0, stderr: '' });
    expect(described.stdout).toContain('Topic: prices  Partitions: 1\n');
    const lines = described.stdout.split('\n');
    const header = lines.indexOf('Log cleaner:') + 1;
    expect(lines[header]?.split(/ {2,}/)).toEqual([
      'PARTITION',
      'BROKER',
      'ROLE',
      'DIRTY',
      'MIN-DIRTY',
      'CLEANED-UP-TO',
      'LAST-CLEANED',
      'LAST-REMOVED',
      'REMOVED-TOTAL',
      'NEXT-CLEAN',
    ]);
    const [partition, brokerId, role, dirty, minDirty, cleanedUpTo, lastCleaned, lastRemoved, total, next] =
      lines[header + 1]!.split(/ {2,}/);
    expect([partition, brokerId, role, minDirty]).toEqual(['0', '0', 'leader', '1.0%']);
    expect(dirty).toMatch(/^\d+\.\d%$/);
    // The cleaner reached into the log: its checkpoint is past the first segment.
    expect(Number(cleanedUpTo)).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(lastCleaned!))).toBe(false);
    expect(lastRemoved).toMatch(/^\d+(\.\d)? (B|KiB)$/);
    expect(total).toMatch(/^\d+(\.\d)? (B|KiB)$/);
    expect(total).not.toBe('0 B');
    expect(next).toMatch(/^(now|at dirty ratio 1\.0%)$/);
  }, 60_000);
});
