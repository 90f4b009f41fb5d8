import { describe, expect, it } from 'vitest';
import { askEveryLeader } from './leader-reports';
import { readMinInsyncReplicas } from './min-insync-replicas';
import type { LeaderReplicationReport } from './partition-health';

/* Asking every broker for what it leads: the answers merge, a silent or failing broker is named. */

const brokers = [
  { nodeId: 3, host: '127.0.0.1', port: 3 },
  { nodeId: 1, host: '127.0.0.1', port: 1 },
  { nodeId: 2, host: '127.0.0.1', port: 2 },
];

function report(topic: string, partition: number): LeaderReplicationReport {
  return { topic, partition, isrChangedAtMs: 1, leaderChangedAtMs: 2, followers: [] };
}

describe('askEveryLeader', () => {
  it('merges the answers and names the brokers that failed or did not answer in time', async () => {
    const answered: number[] = [];
    const failed: number[] = [];
    const leaders = await askEveryLeader(
      brokers,
      (broker) =>
        broker.nodeId === 1
          ? Promise.resolve([report('a', 0), report('b', 1)])
          : broker.nodeId === 2
            ? Promise.reject(new Error('connection refused'))
            : new Promise(() => {}),
      {
        timeoutMs: 50,
        onAnswered: (broker) => answered.push(broker.nodeId),
        onFailed: (broker) => failed.push(broker.nodeId),
      },
    );
    expect(leaders.answered).toEqual([1]);
    expect(leaders.unanswered).toEqual([
      { brokerId: 2, detail: 'connection refused' },
      { brokerId: 3, detail: 'broker 3 did not answer within 50 ms' },
    ]);
    expect(leaders.reportOf('b', 1)).toEqual(report('b', 1));
    expect(leaders.reportOf('b', 0)).toBeUndefined();
    expect(answered).toEqual([1]);
    expect(failed.sort()).toEqual([2, 3]);
  });

  it('counts a broker that leads nothing as answered', async () => {
    const leaders = await askEveryLeader(brokers.slice(0, 1), async () => [], { timeoutMs: 1_000 });
    expect(leaders.answered).toEqual([3]);
    expect(leaders.unanswered).toEqual([]);
  });
});

describe('readMinInsyncReplicas', () => {
  it('reads each topic’s value and leaves out the ones it cannot read', async () => {
    const values = await readMinInsyncReplicas(
      {
        describeConfigs: async () => [
          { name: 'a', configs: [{ name: 'min.insync.replicas', value: '2' }] },
          { name: 'b', configs: [] },
        ],
      } as never,
      ['a', 'b'],
    );
    expect([...values]).toEqual([['a', 2]]);
  });

  it('leaves every topic out when DescribeConfigs fails, so the caller uses the default', async () => {
    const values = await readMinInsyncReplicas(
      {
        describeConfigs: async () => {
          throw new Error('not authorized');
        },
      },
      ['a'],
    );
    expect(values.size).toBe(0);
  });
});
