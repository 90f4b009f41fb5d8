import { z } from 'zod';
import { asOfMsSchema, groupIdSchema, topicNameSchema } from './common';

/*
 * The lag and throughput history the brokers sample (docs/architecture.md §9). Series are columns:
 * one value per bucket of `resolutionMs` from `startMs`, null where no sample was taken.
 */

/** How far back a history read reaches, by the names the pages and REST offer. */
export const historyRanges = {
  '15m': 900_000,
  '1h': 3_600_000,
  '6h': 21_600_000,
  '24h': 86_400_000,
} as const;

export type HistoryRange = keyof typeof historyRanges;

const historyRangeNames = Object.keys(historyRanges) as [HistoryRange, ...HistoryRange[]];

/** `since=1h`: the range back from now; the brokers answer from the finest tier that reaches it. */
export const historySinceSchema = z
  .enum(historyRangeNames)
  .default('1h')
  .meta({ description: `How far back from now: ${historyRangeNames.join(', ')}.` });

const seriesSchema = z
  .array(z.number().nullable())
  .meta({ description: 'One value per bucket from startMs; null where no sample was taken.' });

const gridFields = {
  asOfMs: asOfMsSchema,
  since: z.enum(historyRangeNames),
  /** The start of the first bucket, in ms since the epoch. */
  startMs: z.number().int(),
  resolutionMs: z.number().int(),
  /** How often the brokers sample; -1 when the history is off. */
  sampleIntervalMs: z.number().int(),
};

export const lagHistoryInputSchema = z.object({
  groupId: groupIdSchema,
  since: historySinceSchema,
  /** Each partition's lag too (the group page's stacked chart). */
  partitions: z.boolean().default(true),
});

export const lagTrends = ['caught-up', 'catching-up', 'not-catching-up', 'unknown'] as const;

export const timeToZeroSchema = z.object({
  /** caught-up (no lag), catching-up (consuming faster than produced), not-catching-up, unknown (no samples). */
  trend: z.enum(lagTrends),
  totalLag: z.number().nullable(),
  consumedPerSecond: z.number().nullable(),
  producedPerSecond: z.number().nullable(),
  /** Total lag / (consume rate − produce rate) while catching up; 0 when caught up; else null. */
  secondsToZero: z.number().nullable(),
  /** How far back the rates reach, in ms. */
  basisMs: z.number(),
});

export const lagHistorySchema = z.object({
  ...gridFields,
  groupId: z.string(),
  totalLag: seriesSchema,
  consumedPerSecond: seriesSchema,
  producedPerSecond: seriesSchema,
  partitions: z.array(z.object({ topic: z.string(), partition: z.number().int(), lag: seriesSchema })),
  timeToZero: timeToZeroSchema,
});

export const throughputHistoryInputSchema = z.object({ topic: topicNameSchema, since: historySinceSchema });

export const throughputHistorySchema = z.object({
  ...gridFields,
  topic: z.string(),
  recordsInPerSecond: seriesSchema,
  recordsOutPerSecond: seriesSchema,
  bytesInPerSecond: seriesSchema,
  bytesOutPerSecond: seriesSchema,
});

/** The most rows one trends call asks about: the largest list page (pageLimitSchema), the brokers' limit too. */
export const MAX_TREND_ROWS = 1000;

export const lagTrendsInputSchema = z.object({ groupIds: z.array(groupIdSchema).max(MAX_TREND_ROWS) });
export const throughputTrendsInputSchema = z.object({ topics: z.array(topicNameSchema).max(MAX_TREND_ROWS) });

/** A list's sparklines: the last hour, at most 60 points per row (services/history.ts). */
export const trendsSchema = z.object({
  asOfMs: asOfMsSchema,
  startMs: z.number().int(),
  resolutionMs: z.number().int(),
  /** Row name → its series (total lag of a group; records produced per second to a topic). */
  trends: z.record(z.string(), seriesSchema),
});

export type LagHistoryQuery = z.output<typeof lagHistoryInputSchema>;
export type LagHistoryView = z.infer<typeof lagHistorySchema>;
export type ThroughputHistoryQuery = z.output<typeof throughputHistoryInputSchema>;
export type ThroughputHistoryView = z.infer<typeof throughputHistorySchema>;
export type TrendsView = z.infer<typeof trendsSchema>;
export type TimeToZeroView = z.infer<typeof timeToZeroSchema>;
