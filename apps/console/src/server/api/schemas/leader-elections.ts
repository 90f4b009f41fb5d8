import { z } from 'zod';
import { actionPermissionSchema, asOfMsSchema } from './common';
import { partitionRefSchema } from './reassignments';

/*
 * Leader elections on demand (Kafka's ElectLeaders, docs/architecture.md §6.6 "Elections on
 * demand"): a preferred election gives each partition back to its first replica when that replica
 * is live and in sync; an unclean one gives a leaderless partition any live replica, losing what
 * that replica lacked, which is why it needs an explicit confirmation.
 */

export const electionTypes = ['preferred', 'unclean'] as const;

/** The most partitions one request may name: far more than a page of the ISR view shows. */
const MAX_PARTITIONS = 10_000;

export const leaderElectionInputSchema = z
  .object({
    type: z.enum(electionTypes),
    /** The partitions to elect leaders for; absent: every partition of every topic (Kafka's null). */
    partitions: z
      .array(partitionRefSchema)
      .min(1, 'name at least one partition, or leave partitions out for every partition')
      .max(MAX_PARTITIONS)
      .optional(),
    /** Required (true) for an unclean election, which may lose acknowledged records. */
    confirm: z.boolean().optional(),
  })
  .superRefine((input, context) => {
    if (input.type === 'unclean' && input.confirm !== true) {
      context.addIssue({
        code: 'custom',
        path: ['confirm'],
        message: 'an unclean election may lose acknowledged records: set confirm to true to run it anyway',
      });
    }
  });

/** How one partition's election went, as the console words it. */
export const electionOutcomes = ['elected', 'not-needed', 'failed'] as const;

export const partitionElectionSchema = z.object({
  topic: z.string(),
  partition: z.number().int(),
  result: z.enum(electionOutcomes),
  /** The Kafka error name: NONE when elected, ELECTION_NOT_NEEDED, PREFERRED_LEADER_NOT_AVAILABLE, … */
  errorCode: z.string(),
  /** Why, in words: the broker's message, or the error's description when the broker gave none. */
  message: z.string().nullable(),
  /** The leader the metadata shows after the election; null when it has none or it was not read. */
  newLeader: z.number().int().nullable(),
});

export const leaderElectionResultSchema = z.object({
  asOfMs: asOfMsSchema,
  type: z.enum(electionTypes),
  /** Whether the request covered every partition (no `partitions` given). */
  everyPartition: z.boolean(),
  /**
   * The broker's answer per partition. For every partition it leaves out those whose election was
   * not needed, as Kafka's controller does; `notNeeded` still counts them.
   */
  results: z.array(partitionElectionSchema),
  elected: z.number().int(),
  notNeeded: z.number().int(),
  failed: z.number().int(),
});

export const leaderElectionPermissionSchema = z.object({
  /** Elections need ALTER on the cluster. */
  allowedActions: z.object({ elect: actionPermissionSchema }),
});

export type LeaderElectionInput = z.infer<typeof leaderElectionInputSchema>;
export type PartitionElection = z.infer<typeof partitionElectionSchema>;
export type LeaderElectionResult = z.infer<typeof leaderElectionResultSchema>;
export type LeaderElectionPermission = z.infer<typeof leaderElectionPermissionSchema>;
