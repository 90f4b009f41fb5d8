/**
 * A topic's replication settings, resolved the way its LogConfig resolves them (the topic's
 * override over the broker's default), for code that has a topic record from the cluster view
 * rather than a log: the controller choosing a leader, the topic manager checking a change.
 */

type TopicConfigs = Readonly<Record<string, string>>;

export const MIN_INSYNC_REPLICAS_CONFIG = 'min.insync.replicas';
export const UNCLEAN_LEADER_ELECTION_CONFIG = 'unclean.leader.election.enable';

/** unclean.leader.election.enable of a topic: its override, else the broker's default. */
export function uncleanElectionEnabled(topicConfigs: TopicConfigs, brokerDefault: boolean): boolean {
  const override = topicConfigs[UNCLEAN_LEADER_ELECTION_CONFIG];
  return override === undefined ? brokerDefault : override === 'true';
}

/** min.insync.replicas of a topic: its override, else the broker's default. */
export function minInsyncReplicasOf(topicConfigs: TopicConfigs, brokerDefault: number): number {
  const override = topicConfigs[MIN_INSYNC_REPLICAS_CONFIG];
  return override === undefined ? brokerDefault : Number(override);
}

/**
 * Why a topic's own min.insync.replicas cannot stand with its replication factor, or undefined.
 * Kafka accepts a minimum above the replica count and then fails every acks=all produce with
 * NOT_ENOUGH_REPLICAS; Weir refuses the setting instead, when it is made, because such a topic can
 * never take an acks=all write. Only the topic's override is checked: the broker's default applies
 * to topics of every size, as in Kafka (docs/architecture.md §6.2).
 */
export function minInsyncReplicasProblem(
  topicConfigs: Readonly<Record<string, string | null>>,
  replicationFactor: number,
): string | undefined {
  const value = topicConfigs[MIN_INSYNC_REPLICAS_CONFIG];
  if (value === undefined || value === null) return undefined;
  const minInsync = Number(value);
  if (minInsync <= replicationFactor) return undefined;
  return `${MIN_INSYNC_REPLICAS_CONFIG} ${minInsync} is larger than the replication factor ${replicationFactor}: acks=all produces could never succeed`;
}

/**
 * The replication of an internal topic (`__consumer_offsets`, `__transaction_state`) when it is
 * created: the configured factor (offsets.topic.replication.factor,
 * transaction.state.log.replication.factor, 3 by default) capped by the live brokers, so a
 * standalone broker or a small cluster still gets its coordinators; and a min ISR of 2 once there
 * are at least three replicas (Kafka's transaction.state.log.min.isr), else 1, so losing one
 * broker neither loses a committed offset nor stops the coordinators.
 */
export function internalTopicReplication(
  configuredReplicationFactor: number,
  liveBrokerCount: number,
): { replicationFactor: number; minInsyncReplicas: number } {
  const replicationFactor = Math.max(1, Math.min(configuredReplicationFactor, liveBrokerCount));
  return { replicationFactor, minInsyncReplicas: replicationFactor >= 3 ? 2 : 1 };
}
