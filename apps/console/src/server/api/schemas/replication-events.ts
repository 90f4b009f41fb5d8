import { z } from 'zod';
import { asOfMsSchema, partitionSchema, topicNameSchema } from './common';

/** What happened, as the brokers' replication timeline names it (docs/architecture.md §6.7). */
export const clusterEventKinds = [
  'leader-change',
  'partition-offline',
  'isr-shrink',
  'isr-expand',
  'reassignment-started',
  'reassignment-completed',
  'reassignment-cancelled',
  'broker-session-started',
  'broker-session-ended',
] as const;

export type ClusterEventKindName = (typeof clusterEventKinds)[number];

/** How far back a range reaches, in ms, by the names the page and REST offer. */
export const eventRanges = { '15m': 900_000, '1h': 3_600_000, '24h': 86_400_000, '7d': 604_800_000 } as const;

export type EventRange = keyof typeof eventRanges;

/** The range read when the query names neither a range nor a start. */
export const DEFAULT_EVENT_RANGE: EventRange = '24h';

/** The most events one answer holds: the brokers' own limit for one WeirListClusterEvents. */
export const MAX_EVENT_LIMIT = 5000;

const KIND_LIST = new RegExp(`^(${clusterEventKinds.join('|')})(,(${clusterEventKinds.join('|')}))*$`);

const epochMsSchema = z.number().int().min(0).max(8_640_000_000_000_000);

export const replicationEventsInputSchema = z
  .object({
    topic: topicNameSchema.optional(),
    /** Only with a topic: a partition number alone would match that number in every topic. */
    partition: partitionSchema.optional(),
    /** Events naming this broker in any role: subject, leader, previous leader, ISR member that came or went. */
    brokerId: z.number().int().min(0).max(2_147_483_647).optional(),
    /** The range back from `untilMs` (or now); not together with `sinceMs`. */
    range: z.enum(Object.keys(eventRanges) as [EventRange, ...EventRange[]]).optional(),
    sinceMs: epochMsSchema.optional(),
    untilMs: epochMsSchema.optional(),
    /** Comma-separated kinds (`isr-shrink,isr-expand`); a string so a query string carries it as it is. */
    kinds: z
      .string()
      .regex(KIND_LIST, `expected kinds separated by commas, each one of ${clusterEventKinds.join(', ')}`)
      .optional(),
    limit: z.number().int().min(1).max(MAX_EVENT_LIMIT).default(500),
  })
  .superRefine((input, context) => {
    if (input.partition !== undefined && input.topic === undefined) {
      context.addIssue({ code: 'custom', path: ['partition'], message: 'a partition needs a topic' });
    }
    if (input.range !== undefined && input.sinceMs !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['range'],
        message: 'give either a range or sinceMs, not both',
      });
    }
    if (input.sinceMs !== undefined && input.untilMs !== undefined && input.sinceMs > input.untilMs) {
      context.addIssue({ code: 'custom', path: ['untilMs'], message: 'untilMs must not be before sinceMs' });
    }
  });

export const clusterEventViewSchema = z.object({
  /** Sorts by time as a string. */
  id: z.string(),
  atMs: z.number().int(),
  kind: z.enum(clusterEventKinds),
  topic: z.string().optional(),
  partition: z.number().int().optional(),
  /** The broker whose session it is (session events). */
  brokerId: z.number().int().optional(),
  /** The replicas that left the ISR (a shrink) or joined it (an expansion); empty for other kinds. */
  replicasChanged: z.array(z.number().int()),
  leader: z.number().int().optional(),
  previousLeader: z.number().int().optional(),
  leaderEpoch: z.number().int().optional(),
  isr: z.array(z.number().int()).optional(),
  previousIsr: z.array(z.number().int()).optional(),
  /** Why, as the writer of the change said (`leader-not-live`, `controlled-shutdown`, …). */
  cause: z.string().optional(),
  sessionId: z.string().optional(),
  detail: z.string().optional(),
  /** Why, in words: the writer's cause and detail ("failover: the leader's session ended"); null when it gave neither. */
  reason: z.string().nullable(),
  /** The event in words: "leader 2 → 3 (epoch 4): the leader's session ended". */
  description: z.string(),
});

export const replicationEventsSchema = z.object({
  asOfMs: asOfMsSchema,
  /** The time range that was read, inclusive, in ms since the epoch. */
  sinceMs: z.number().int(),
  untilMs: z.number().int(),
  /** The range's name when the query gave one (or none gave a start), else null. */
  range: z.string().nullable(),
  limit: z.number().int(),
  /** Whether older events in the range may be left out because the limit was reached. */
  truncated: z.boolean(),
  /** Newest first. */
  events: z.array(clusterEventViewSchema),
});

export type ReplicationEventsInput = z.input<typeof replicationEventsInputSchema>;
export type ReplicationEventsQuery = z.output<typeof replicationEventsInputSchema>;
export type ReplicationEvents = z.infer<typeof replicationEventsSchema>;
export type ClusterEventView = z.infer<typeof clusterEventViewSchema>;
