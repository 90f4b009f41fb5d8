import { ACL_OPERATIONS } from '@weir/protocol';
import { z } from 'zod';
import type { PartitionAssignment, TopicRecord } from './metadata-store';

/** The format of `metadata.json`; additions since format 1 are optional, so old files still load. */
export const FORMAT_VERSION = 1;

const brokerIdSchema = z.number().int().min(0);

const storedAssignmentSchema = z.object({
  replicas: z.array(brokerIdSchema).min(1),
  leader: z.number().int().min(-1),
  leaderEpoch: z.number().int().min(0),
  isr: z.array(brokerIdSchema),
  version: z.number().int().min(0),
  // Added with the replication timeline: when the ISR and the leader last changed.
  isrChangedAtMs: z.number().int().optional(),
  leaderChangedAtMs: z.number().int().optional(),
});

export const metadataFileSchema = z.object({
  version: z.literal(FORMAT_VERSION),
  clusterId: z.string().min(1),
  // Added with partition assignments: the broker whose catalogue this is. A file written before
  // has none and is adopted by the broker that opens it.
  brokerId: brokerIdSchema.optional(),
  nextProducerId: z.number().int().min(0),
  topics: z.array(
    z.object({
      name: z.string().min(1),
      topicId: z.string().min(1),
      partitionCount: z.number().int().min(1),
      configs: z.record(z.string(), z.string()),
      internal: z.boolean(),
      createdAtMs: z.number().int(),
      // Added with placement-aware metadata, one per partition in partition order. A file written
      // before has none: every partition was on this one broker, which led it from epoch 0.
      assignments: z.array(storedAssignmentSchema).optional(),
    }),
  ),
  // Added after format 1 shipped; a file written before SASL users existed has none.
  users: z
    .array(
      z.object({
        name: z.string().min(1),
        credentials: z.record(
          z.string(),
          z.object({
            salt: z.string().min(1),
            iterations: z.number().int().min(1),
            storedKey: z.string().min(1),
            serverKey: z.string().min(1),
          }),
        ),
      }),
    )
    .default([]),
  // Added after format 1 shipped, like users.
  acls: z
    .array(
      z.object({
        resourceType: z.enum(['TOPIC', 'GROUP', 'CLUSTER', 'TRANSACTIONAL_ID']),
        resourceName: z.string().min(1),
        patternType: z.enum(['LITERAL', 'PREFIXED']),
        principal: z.string().min(1),
        host: z.string().min(1),
        operation: z.enum(ACL_OPERATIONS),
        permission: z.enum(['ALLOW', 'DENY']),
      }),
    )
    .default([]),
  // Added with client quotas (docs/architecture.md §6.2): an absent type is not part of the entity,
  // a null name is the type's default entity.
  clientQuotas: z
    .array(
      z.object({
        entity: z.object({
          user: z.string().min(1).nullable().optional(),
          clientId: z.string().nullable().optional(),
        }),
        values: z.record(z.string(), z.number().positive()),
      }),
    )
    .default([]),
  // Added with the replication throttle: the dynamic broker configs ("" scope: the default).
  brokerConfigs: z
    .array(z.object({ scope: z.string(), configs: z.record(z.string(), z.string()) }))
    .default([]),
});

export type MetadataFile = z.infer<typeof metadataFileSchema>;
export type StoredTopic = MetadataFile['topics'][number];
export type StoredAssignment = z.infer<typeof storedAssignmentSchema>;

/** A fresh catalogue for a broker's first start. */
export function emptyMetadataFile(clusterId: string, brokerId: number): MetadataFile {
  return {
    version: FORMAT_VERSION,
    clusterId,
    brokerId,
    nextProducerId: 0,
    topics: [],
    users: [],
    acls: [],
    clientQuotas: [],
    brokerConfigs: [],
  };
}

/**
 * Parses a catalogue and brings it to the current shape: in a file from before partition
 * assignments every partition was on the one broker that wrote it, led by it from epoch 0. A file that belongs to another broker id is
 * refused, as Kafka refuses a log directory whose meta.properties names another node id: serving
 * it would make every partition look like another broker's.
 */
export function parseMetadataFile(text: string, path: string, brokerId: number): MetadataFile {
  const parsed = metadataFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${path} is not a valid metadata file: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const file = parsed.data;
  if (file.brokerId !== undefined && file.brokerId !== brokerId) {
    throw new Error(
      `${path} belongs to broker ${file.brokerId}, but this broker's nodeId is ${brokerId}; start it with nodeId ${file.brokerId} or another data directory`,
    );
  }
  file.brokerId = brokerId;
  for (const topic of file.topics) {
    if (topic.assignments !== undefined && topic.assignments.length !== topic.partitionCount) {
      throw new Error(
        `${path} is not a valid metadata file: topic "${topic.name}" has ${topic.partitionCount} partitions but ${topic.assignments.length} assignments`,
      );
    }
    topic.assignments ??= Array.from({ length: topic.partitionCount }, () => ({
      replicas: [brokerId],
      leader: brokerId,
      leaderEpoch: 0,
      isr: [brokerId],
      version: 0,
    }));
  }
  return file;
}

/** The catalogue entry of a stored topic, without its assignments. */
export function topicRecordOf(stored: StoredTopic): TopicRecord {
  const { assignments: _assignments, ...record } = stored;
  return record;
}

/** A stored assignment as readers see it. */
export function assignmentOf(
  topic: string,
  partition: number,
  stored: StoredAssignment,
): PartitionAssignment {
  return { topic, partition, ...stored };
}
