import { z } from 'zod';
import { actionPermissionSchema, asOfMsSchema, partitionSchema, topicNameSchema } from './common';

/*
 * Partition reassignment (KIP-455) in the console: the moves in progress with how far each new
 * replica has copied, the preview of a set of moves or of a broker drain, and the submission and
 * cancellation of moves. Sizes are plain numbers of bytes, as on the Brokers page.
 */

/** A broker id as a move names it. */
export const brokerIdSchema = z.number().int().min(0).max(2_147_483_647);

/** One partition and the replicas it should have, the first the preferred leader. */
export const partitionMoveSchema = z.object({
  topic: topicNameSchema,
  partition: partitionSchema,
  replicas: z.array(brokerIdSchema).min(1, 'name at least one target replica').max(64),
});

export const partitionRefSchema = z.object({ topic: topicNameSchema, partition: partitionSchema });

/** The most moves one request may carry: a drain of a large broker stays well within it. */
const MAX_MOVES = 10_000;

/**
 * A preview: either the moves to check (`moves`) or the broker whose every replica should move
 * away (`drainBrokerId`), never both.
 */
export const reassignmentPlanInputSchema = z
  .object({
    moves: z.array(partitionMoveSchema).min(1, 'name at least one move').max(MAX_MOVES).optional(),
    drainBrokerId: brokerIdSchema.optional(),
  })
  .superRefine((input, context) => {
    if (input.moves === undefined && input.drainBrokerId === undefined) {
      context.addIssue({ code: 'custom', path: ['moves'], message: 'name moves or a drainBrokerId' });
    } else if (input.moves !== undefined && input.drainBrokerId !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['drainBrokerId'],
        message: 'name either moves or a drainBrokerId, not both',
      });
    }
  });

export const reassignmentExecuteInputSchema = z.object({
  moves: z.array(partitionMoveSchema).min(1, 'name at least one move').max(MAX_MOVES),
  /**
   * The replication throttle to set first (follower.replication.throttled.rate, the cluster
   * default): bytes per second each broker may fetch for the replicas being added. Null lifts it;
   * absent leaves it as it is.
   */
  throttleBytesPerSecond: z
    .number()
    .int('a whole number of bytes per second')
    .min(1, 'at least 1 byte per second')
    .max(Number.MAX_SAFE_INTEGER)
    .nullable()
    .optional(),
});

export const reassignmentCancelInputSchema = z.object({
  /** The moves to cancel; absent: every move in progress. */
  partitions: z.array(partitionRefSchema).min(1, 'name at least one partition').max(MAX_MOVES).optional(),
});

/** How far one adding replica has copied its leader's log. */
export const addingReplicaProgressSchema = z.object({
  brokerId: z.number().int(),
  /** Its log's size now; null when its broker did not say. */
  copiedBytes: z.number().nullable(),
  /** copiedBytes over the leader's size, 0..1; null when either is unknown; 1 once in sync. */
  fraction: z.number().nullable(),
  /** In the ISR: what completes the move. */
  inSync: z.boolean(),
});

export const reassignmentRowSchema = z.object({
  topic: z.string(),
  partition: z.number().int(),
  /** The target followed by the replicas being removed, as the metadata store has them. */
  replicas: z.array(z.number().int()),
  /** Where the partition ends up: the replicas without the removing ones. */
  targetReplicas: z.array(z.number().int()),
  addingReplicas: z.array(z.number().int()),
  removingReplicas: z.array(z.number().int()),
  /** -1 while the partition has no leader. */
  leaderId: z.number().int(),
  isr: z.array(z.number().int()),
  /** The leader's log size, what each adding replica copies; null when unknown. */
  leaderSizeBytes: z.number().nullable(),
  progress: z.array(addingReplicaProgressSchema),
});

/** A broker whose log sizes could not be read, so its replicas' progress is unknown. */
export const unansweredBrokerSchema = z.object({ brokerId: z.number().int(), detail: z.string() });

export const reassignmentListSchema = z.object({
  asOfMs: asOfMsSchema,
  reassignments: z.array(reassignmentRowSchema),
  unansweredBrokers: z.array(unansweredBrokerSchema),
  /** Moving, draining and cancelling need ALTER on the cluster. */
  allowedActions: z.object({ reassign: actionPermissionSchema }),
});

export const plannedMoveSchema = z.object({
  topic: z.string(),
  partition: z.number().int(),
  currentReplicas: z.array(z.number().int()),
  replicas: z.array(z.number().int()),
  addingReplicas: z.array(z.number().int()),
  removingReplicas: z.array(z.number().int()),
  /** The leader's log size times the adding replicas; null when the leader's size is unknown. */
  bytesToCopy: z.number().nullable(),
  /** The leader is removed, so leadership moves when the move completes. */
  leaderMoves: z.boolean(),
  /** Whether a move of this partition already runs; submitting this one replaces it. */
  replacesMoveInProgress: z.boolean(),
});

export const refusedMoveSchema = z.object({
  topic: z.string(),
  partition: z.number().int(),
  /** Where its replicas are now; null when the partition does not exist. */
  currentReplicas: z.array(z.number().int()).nullable(),
  /** The requested target; null for a drain that found nowhere to go. */
  replicas: z.array(z.number().int()).nullable(),
  problem: z.string(),
});

export const reassignmentPlanSchema = z.object({
  asOfMs: asOfMsSchema,
  /** The broker drained, or null for a plan of named moves. */
  drainBrokerId: z.number().int().nullable(),
  moves: z.array(plannedMoveSchema),
  refused: z.array(refusedMoveSchema),
  totals: z.object({
    partitionsMoving: z.number().int(),
    /** The sum over the moves whose leader's size is known. */
    bytesToCopy: z.number(),
    /** Moves whose bytes to copy are unknown (not in `bytesToCopy`). */
    unknownSizeMoves: z.number().int(),
    leadersMoving: z.number().int(),
  }),
  unansweredBrokers: z.array(unansweredBrokerSchema),
  /**
   * The planned moves in Kafka's reassignment JSON (what kafka-reassign-partitions.sh takes), so a
   * plan can be kept, edited and submitted later.
   */
  kafkaJson: z.string(),
});

/** The broker's answer for one partition of a submission or cancellation. */
export const moveResultSchema = z.object({
  topic: z.string(),
  partition: z.number().int(),
  ok: z.boolean(),
  /** The Kafka code (0 when ok), its name and the broker's message; null when ok. */
  errorCode: z.number().int(),
  error: z.string().nullable(),
  message: z.string().nullable(),
});

export const moveResultsSchema = z.object({
  asOfMs: asOfMsSchema,
  results: z.array(moveResultSchema),
  /** How many were started (or cancelled) and refused. */
  accepted: z.number().int(),
  refused: z.number().int(),
});

export type PartitionMoveInput = z.infer<typeof partitionMoveSchema>;
export type ReassignmentPlanInput = z.infer<typeof reassignmentPlanInputSchema>;
export type ReassignmentExecuteInput = z.infer<typeof reassignmentExecuteInputSchema>;
export type ReassignmentCancelInput = z.infer<typeof reassignmentCancelInputSchema>;
export type ReassignmentRow = z.infer<typeof reassignmentRowSchema>;
export type ReassignmentList = z.infer<typeof reassignmentListSchema>;
export type PlannedMoveRow = z.infer<typeof plannedMoveSchema>;
export type RefusedMoveRow = z.infer<typeof refusedMoveSchema>;
export type ReassignmentPlan = z.infer<typeof reassignmentPlanSchema>;
export type MoveResults = z.infer<typeof moveResultsSchema>;
export type UnansweredBroker = z.infer<typeof unansweredBrokerSchema>;
