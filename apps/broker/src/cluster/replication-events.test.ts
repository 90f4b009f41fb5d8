import { describe, expect, it } from 'vitest';
import { createBrokerMetrics } from '../http/metrics';
import type { PartitionAssignment } from '../metadata/metadata-store';
import { countControllerChange, countLeaderIsrChange, countRequestedElection } from './replication-events';

const three: PartitionAssignment = {
  topic: 't',
  partition: 0,
  replicas: [1, 2, 3],
  leader: 1,
  leaderEpoch: 4,
  isr: [1, 2, 3],
  version: 9,
};

async function counts(metrics: ReturnType<typeof createBrokerMetrics>): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  const { isrShrinksTotal, isrExpandsTotal, leaderElectionsTotal, uncleanLeaderElectionsTotal } =
    metrics.replication;
  result.shrinks = (await isrShrinksTotal.get()).values[0]?.value ?? 0;
  result.expands = (await isrExpandsTotal.get()).values[0]?.value ?? 0;
  result.unclean = (await uncleanLeaderElectionsTotal.get()).values[0]?.value ?? 0;
  for (const value of (await leaderElectionsTotal.get()).values) {
    result[`elections:${value.labels.reason}`] = value.value;
  }
  return result;
}

describe('replication event counts', () => {
  it('counts the ISR changes the leader stored by comparing the ISR before and after', async () => {
    const metrics = createBrokerMetrics();
    countLeaderIsrChange(metrics.replication, three, { isr: [1, 2] });
    countLeaderIsrChange(metrics.replication, { isr: [1, 2] }, { isr: [1, 2, 3] });
    countLeaderIsrChange(metrics.replication, { isr: [1, 2] }, { isr: [1, 2] });
    // Without a stored assignment to compare with, nothing is counted.
    countLeaderIsrChange(metrics.replication, undefined, { isr: [1] });
    expect(await counts(metrics)).toEqual({ shrinks: 1, expands: 1, unclean: 0 });
  });

  it('counts controller elections by reason, a dropped member as a shrink, and going offline as neither election', async () => {
    const metrics = createBrokerMetrics();
    const { replication } = metrics;
    countControllerChange(replication, three, {
      next: { ...three, isr: [1, 2] },
      reason: 'member-not-live',
    });
    countControllerChange(replication, three, {
      next: { ...three, leader: 2, leaderEpoch: 5, isr: [2, 3] },
      reason: 'leader-not-live',
    });
    const offline = { ...three, leader: -1, leaderEpoch: 5, isr: [1] };
    countControllerChange(replication, { ...three, isr: [1] }, { next: offline, reason: 'leader-not-live' });
    countControllerChange(replication, offline, {
      next: { ...offline, leader: 1, leaderEpoch: 6 },
      reason: 'offline-partition',
    });
    countControllerChange(replication, offline, {
      next: { ...offline, leader: 3, leaderEpoch: 6, isr: [3] },
      reason: 'unclean',
    });
    expect(await counts(metrics)).toEqual({
      shrinks: 2,
      expands: 0,
      unclean: 1,
      'elections:leader-not-live': 1,
      'elections:offline-partition': 1,
      'elections:unclean': 1,
    });
    const text = await metrics.registry.metrics();
    expect(text).toContain('weir_leader_elections_total{reason="offline-partition"} 1');
    expect(text).toContain('weir_unclean_leader_elections_total 1');
  });
});

describe('requested election counts', () => {
  it('counts ElectLeaders and rebalance elections by cause, and an unclean one as unclean too', async () => {
    const metrics = createBrokerMetrics();
    countRequestedElection(metrics.replication, 'preferred-election');
    countRequestedElection(metrics.replication, 'auto-leader-rebalance');
    countRequestedElection(metrics.replication, 'unclean');
    expect(await counts(metrics)).toEqual({
      shrinks: 0,
      expands: 0,
      unclean: 1,
      'elections:preferred-election': 1,
      'elections:auto-leader-rebalance': 1,
      'elections:unclean': 1,
    });
  });
});
