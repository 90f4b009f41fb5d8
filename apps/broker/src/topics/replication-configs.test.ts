import { describe, expect, it } from 'vitest';
import {
  internalTopicReplication,
  minInsyncReplicasOf,
  minInsyncReplicasProblem,
  uncleanElectionEnabled,
} from './replication-configs';

describe('a topic’s replication settings', () => {
  it('takes the topic’s unclean.leader.election.enable over the broker default', () => {
    expect(uncleanElectionEnabled({}, false)).toBe(false);
    expect(uncleanElectionEnabled({}, true)).toBe(true);
    expect(uncleanElectionEnabled({ 'unclean.leader.election.enable': 'true' }, false)).toBe(true);
    expect(uncleanElectionEnabled({ 'unclean.leader.election.enable': 'false' }, true)).toBe(false);
  });

  it('takes the topic’s min.insync.replicas over the broker default', () => {
    expect(minInsyncReplicasOf({}, 2)).toBe(2);
    expect(minInsyncReplicasOf({ 'min.insync.replicas': '3' }, 1)).toBe(3);
  });

  it('refuses a topic min.insync.replicas above its replication factor, naming both', () => {
    expect(minInsyncReplicasProblem({ 'min.insync.replicas': '3' }, 3)).toBeUndefined();
    expect(minInsyncReplicasProblem({}, 1)).toBeUndefined();
    expect(minInsyncReplicasProblem({ 'min.insync.replicas': '4' }, 3)).toMatch(
      /^min\.insync\.replicas 4 is larger than the replication factor 3/,
    );
  });
});

describe('internalTopicReplication', () => {
  it('caps the configured factor by the live brokers, with min ISR 2 from three replicas', () => {
    expect(internalTopicReplication(3, 1)).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(internalTopicReplication(3, 2)).toEqual({ replicationFactor: 2, minInsyncReplicas: 1 });
    expect(internalTopicReplication(3, 5)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    expect(internalTopicReplication(1, 5)).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(internalTopicReplication(5, 5)).toEqual({ replicationFactor: 5, minInsyncReplicas: 2 });
  });
});
