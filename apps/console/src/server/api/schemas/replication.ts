import { PARTITION_HEALTH_STATES } from '@weir/protocol/names';
import { z } from 'zod';
import { asOfMsSchema, signedDecimalSchema, topicNameSchema } from './common';

/**
 * What can be wrong with a partition's replication, worst first: the SDK's list (the judgement is
 * shared with `weir cluster status`), read through the browser-safe entry because the page's
 * components use it too.
 */
export const partitionReplicationStates = PARTITION_HEALTH_STATES;

export const partitionReplicationStateSchema = z.enum(partitionReplicationStates);

export const replicationHealthInputSchema = z.object({
  topic: topicNameSchema.optional(),
  /** Only partitions this broker holds a replica of (or leads). */
  brokerId: z.number().int().min(0).max(2_147_483_647).optional(),
  state: partitionReplicationStateSchema.optional(),
});

export const laggingFollowerSchema = z.object({
  brokerId: z.number().int(),
  /** Records behind the leader's log end, when the leader reported it; else null. */
  lagRecords: signedDecimalSchema.nullable(),
  /** How long since it was last caught up, when the leader reported it; else null. */
  lagMs: z.number().int().nullable(),
  /** Whether the broker is registered (has a live session) in the cluster metadata. */
  registered: z.boolean(),
  /** Why it is behind, in words: "broker 3's session ended", "broker 2 is not in the ISR: …". */
  reason: z.string(),
});

export const partitionReplicationRowSchema = z.object({
  topic: z.string(),
  partition: z.number().int(),
  /** Worst first; never empty in this list. */
  states: z.array(partitionReplicationStateSchema),
  leaderId: z.number().int(),
  /** The first replica, which preferred-leader election moves leadership back to. */
  preferredLeaderId: z.number().int(),
  replicas: z.array(z.number().int()),
  isr: z.array(z.number().int()),
  minInsyncReplicas: z.number().int(),
  /** Every reason in words, the most important first. */
  reasons: z.array(z.string()),
  laggingFollowers: z.array(laggingFollowerSchema),
  /** When the ISR last changed, when the leader reported it; else null. */
  isrChangedAtMs: z.number().int().nullable(),
  /** When the leader last changed, when the leader reported it; else null. */
  leaderChangedAtMs: z.number().int().nullable(),
});

export const replicationStateCountsSchema = z.object({
  offline: z.number().int(),
  underMinIsr: z.number().int(),
  atMinIsr: z.number().int(),
  underReplicated: z.number().int(),
  nonPreferredLeader: z.number().int(),
});

export const replicationHealthSchema = z.object({
  asOfMs: asOfMsSchema,
  /** Partitions the check covered (after the topic and broker filters), and over how many topics. */
  partitionCount: z.number().int(),
  topicCount: z.number().int(),
  /** Brokers registered in the metadata, ascending. */
  registeredBrokers: z.array(z.number().int()),
  /** Registered brokers that answered the console within the deadline, ascending. */
  answeredBrokers: z.array(z.number().int()),
  /** Registered brokers that did not answer, with why. */
  unansweredBrokers: z.array(z.object({ brokerId: z.number().int(), detail: z.string() })),
  /** Counts over the covered partitions, before the state filter. */
  counts: replicationStateCountsSchema,
  /** Partitions in any unhealthy state (the state filter applied), by topic then partition. */
  partitions: z.array(partitionReplicationRowSchema),
});

export type ReplicationHealthInput = z.infer<typeof replicationHealthInputSchema>;
export type ReplicationHealth = z.infer<typeof replicationHealthSchema>;
export type PartitionReplicationRow = z.infer<typeof partitionReplicationRowSchema>;
export type PartitionReplicationState = z.infer<typeof partitionReplicationStateSchema>;
export type LaggingFollower = z.infer<typeof laggingFollowerSchema>;
