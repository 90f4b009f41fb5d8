import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, Client, TransactionalProducer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * A data directory from before Weir compacted its internal topics (issue #19 item 5): there,
 * `__consumer_offsets` and `__transaction_state` had no cleanup.policy. Such a directory is made
 * here by replacing the topics' configs with ones that name no policy (AlterConfigs replaces the
 * whole set); the next start of the broker compacts both from then on.
 */

const INTERNAL_TOPICS = ['__consumer_offsets', '__transaction_state'] as const;

async function cleanupPolicies(admin: Admin): Promise<(string | undefined)[]> {
  const described = await admin.describeConfigs(INTERNAL_TOPICS.map((name) => ({ type: 'topic', name })));
  return INTERNAL_TOPICS.map(
    (name) =>
      described
        .find((resource) => resource.name === name)
        ?.configs.find((entry) => entry.name === 'cleanup.policy')?.value ?? undefined,
  );
}

describe('internal topics of an older data directory', () => {
  let dataDir: string | undefined;
  let broker: RunningBroker | undefined;
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close();
    await broker?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('compact from the next start on', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'weir-internal-upgrade-'));
    broker = await startBroker({ groups: { offsetsTopicPartitions: 1 } }, dataDir);
    client = new Client({ bootstrapServers: [broker.bootstrap] });
    const admin = new Admin(client);
    await admin.createTopics([{ name: 'orders', partitions: 1 }]);
    // A commit creates __consumer_offsets, a transaction __transaction_state.
    await admin.resetOffsets('billing', { offset: 0 }, { topics: ['orders'] });
    const producer = new TransactionalProducer(client, { transactionalId: 'upgrade' });
    await producer.initTransactions();
    producer.beginTransaction();
    await producer.send({ topic: 'orders', messages: [{ value: 'paid', partition: 0 }] });
    await producer.commitTransaction();
    await producer.close();
    expect(await cleanupPolicies(admin)).toEqual(['compact', 'compact']);

    await admin.alterConfigs(
      INTERNAL_TOPICS.map((name) => ({ type: 'topic', name, configs: { 'retention.ms': '-1' } })),
    );
    // Without an override the broker's default (delete) applies: the old directory's state.
    expect(await cleanupPolicies(admin)).toEqual(['delete', 'delete']);

    await client.close();
    await broker.stop();
    broker = await startBroker({ groups: { offsetsTopicPartitions: 1 } }, dataDir);
    client = new Client({ bootstrapServers: [broker.bootstrap] });
    expect(await cleanupPolicies(new Admin(client))).toEqual(['compact', 'compact']);
  });
});
