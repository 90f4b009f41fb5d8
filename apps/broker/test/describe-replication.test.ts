import { ErrorCode, InternalAdmin } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { cluster, PRINCIPAL_OF, secureBrokerPerTest } from './acl-fixtures';
import { weirFailure } from './internal-fixtures';

// WeirDescribeReplication on a standalone broker: it leads every partition, alone in each ISR, with
// no followers; the three-broker case (a dead follower's lag and the ISR change time) is in the
// console's replication-health-cluster test.
describe('WeirDescribeReplication', () => {
  const secure = secureBrokerPerTest();

  it('lists the partitions this broker leads, filtered by topic', async () => {
    const running = await secure.start();
    const internal = new InternalAdmin(secure.internalClientAs());
    const brokerId = running.broker.services.cluster.localBrokerId;

    const all = await internal.describeReplication();
    expect(all.map((row) => row.topic)).toEqual(expect.arrayContaining(['data', 'victim', 'grow']));
    const data = await internal.describeReplication(['data']);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      topic: 'data',
      partition: 0,
      replicas: [brokerId],
      isr: [brokerId],
      followers: [],
    });
    expect(data[0]!.logEndOffset).toBeGreaterThanOrEqual(data[0]!.highWatermark);
    expect(await internal.describeReplication(['no-such-topic'])).toEqual([]);
  });

  it('needs DESCRIBE on the cluster', async () => {
    const running = await secure.start();
    const acting = new InternalAdmin(secure.internalClientAs(PRINCIPAL_OF.granted));
    const refused = await weirFailure(acting.describeReplication());
    expect(refused.code).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);

    await running.broker.services.acls.createAcls([{ binding: cluster('DESCRIBE') }]);
    expect((await acting.describeReplication(['data'])).map((row) => row.topic)).toEqual(['data']);
  });
});
