import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../broker/test/group-fixtures';
import { createCaller } from '../src/server/api/root';
import type { LeaderElectionResult } from '../src/server/api/schemas/leader-elections';
import type { ReplicationHealth } from '../src/server/api/schemas/replication';
import { createContextInner } from '../src/server/api/trpc';
import { CLUSTER_TIMEOUT_MS, type ClusterGateway, startClusterGateway } from './cluster-gateway-fixture';

/*
 * Preferred-leader elections through the console (POST /leaders/elect, tRPC leaders.elect) against
 * a real three-broker cluster with the auto leader rebalance off, so leadership that moved away
 * from a restarted broker stays away until someone elects it back.
 */

const TOPIC = 'rebalanced';
const PARTITIONS = 6;

let fixture: ClusterGateway;

beforeAll(async () => {
  fixture = await startClusterGateway({
    config: { cluster: { sessionTtlSeconds: 3, controllerTtlSeconds: 3, autoLeaderRebalanceEnable: false } },
  });
}, CLUSTER_TIMEOUT_MS);

afterAll(() => fixture?.stop(), CLUSTER_TIMEOUT_MS);

function health(): Promise<ReplicationHealth> {
  return fixture.json<ReplicationHealth>('GET', `/replication/health?topic=${TOPIC}`);
}

describe('preferred-leader elections on a three-broker cluster', { timeout: CLUSTER_TIMEOUT_MS }, () => {
  let moved: number[] = [];
  let victim = -1;

  it('lists the partitions a restarted broker used to lead as led by a non-preferred replica', async () => {
    await fixture.json('POST', '/topics', { name: TOPIC, partitions: PARTITIONS, replicationFactor: 3 });
    await pollUntil(
      async () => {
        const current = await health();
        return current.partitionCount === PARTITIONS && current.partitions.length === 0;
      },
      'the new topic to have its preferred leaders and full ISRs',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    const [described] = await fixture.clients.admin().describeTopics([TOPIC]);
    const partitions = described?.partitions ?? [];
    victim = partitions.find((row) => row.partition === 0)?.leaderId ?? -1;
    moved = partitions.filter((row) => row.leaderId === victim).map((row) => row.partition);
    expect(victim).toBeGreaterThan(0);

    // A controlled stop hands its leaderships over; back, it rejoins the ISRs but leads nothing.
    await fixture.cluster.broker(victim).restart();
    const imbalanced = await pollUntil(
      async () => {
        const current = await health();
        const listed = current.partitions.map((row) => row.partition).sort((a, b) => a - b);
        return current.counts.underReplicated === 0 && listed.join() === moved.join() ? current : undefined;
      },
      `broker ${victim} to be back in every ISR, leading none of partitions ${moved.join(', ')}`,
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    for (const row of imbalanced.partitions) {
      expect(row.states).toEqual(['non-preferred-leader']);
      expect(row.replicas[0]).toBe(victim);
      expect(row.leaderId).not.toBe(victim);
    }
  });

  it('elects the preferred leaders of the named partitions and answers not-needed for the others', async () => {
    const everyOne = Array.from({ length: PARTITIONS }, (_, partition) => ({ topic: TOPIC, partition }));
    const answer = await fixture.json<LeaderElectionResult>('POST', '/leaders/elect', {
      type: 'preferred',
      partitions: everyOne,
    });
    expect(answer.everyPartition).toBe(false);
    expect(answer.elected).toBe(moved.length);
    expect(answer.notNeeded).toBe(PARTITIONS - moved.length);
    expect(answer.failed).toBe(0);
    for (const row of answer.results) {
      if (moved.includes(row.partition)) {
        expect(row).toMatchObject({ result: 'elected', errorCode: 'NONE', message: null, newLeader: victim });
      } else {
        expect(row).toMatchObject({ result: 'not-needed', errorCode: 'ELECTION_NOT_NEEDED' });
        expect(row.message).toEqual(expect.any(String));
      }
    }
    await pollUntil(
      async () => (await health()).partitions.length === 0,
      'the ISR view to list no partition of the topic once its preferred leaders lead',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
  });

  it('over tRPC, elects across every partition and counts them all as not needed now', async () => {
    const caller = createCaller(createContextInner({ services: fixture.services }));
    const answer = await caller.leaders.elect({ type: 'preferred' });
    expect(answer.everyPartition).toBe(true);
    expect(answer.results).toEqual([]);
    expect(answer.elected).toBe(0);
    expect(answer.notNeeded).toBeGreaterThanOrEqual(PARTITIONS);
  });

  it('answers failed, in words, while the preferred replica is stopped; a confirmed unclean election is not needed', async () => {
    const partition0 = [{ topic: TOPIC, partition: 0 }];
    // A partition that has a leader needs no unclean election, confirmed or not.
    const unclean = await fixture.json<LeaderElectionResult>('POST', '/leaders/elect', {
      type: 'unclean',
      confirm: true,
      partitions: partition0,
    });
    expect(unclean.results).toEqual([
      expect.objectContaining({ partition: 0, result: 'not-needed', errorCode: 'ELECTION_NOT_NEEDED' }),
    ]);

    await fixture.cluster.broker(victim).stop();
    const stopped = await pollUntil(
      async () => {
        const answer = await fixture.json<LeaderElectionResult>('POST', '/leaders/elect', {
          type: 'preferred',
          partitions: partition0,
        });
        return answer.failed === 1 ? answer : undefined;
      },
      `the election of ${TOPIC}-0 to fail while broker ${victim} is stopped`,
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(stopped.results).toEqual([
      expect.objectContaining({
        partition: 0,
        result: 'failed',
        errorCode: 'PREFERRED_LEADER_NOT_AVAILABLE',
        message: expect.any(String),
      }),
    ]);
    expect(stopped.results[0]?.newLeader).not.toBe(victim);
    await fixture.cluster.broker(victim).restart();
  });

  it('refuses bad input with 400, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ type: 'sideways' }, 'type'],
      [{ type: 'unclean' }, 'confirm'],
      [{ type: 'preferred', partitions: [] }, 'partitions'],
      [{ type: 'preferred', partitions: [{ topic: TOPIC, partition: -1 }] }, 'partition'],
    ];
    for (const [body, field] of cases) {
      const response = await fixture.gateway.rest('POST', '/leaders/elect', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.text()).toContain(field);
    }
  });
});
