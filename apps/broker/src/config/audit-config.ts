import { z } from 'zod';

/** One day in milliseconds. */
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The broker's audit log of administrative actions (docs/architecture.md §8, audit/audit-log.ts):
 * kept in `<dataDir>/audit-log.jsonl`, bounded by count and by age, whichever drops an event first.
 */
export const auditConfigSchema = z
  .strictObject({
    /** The most events kept; the file holds at most twice this many lines before it is rewritten. */
    maxEvents: z.number().int().min(10).max(1_000_000).default(50_000),
    /** How long an event is kept (default 90 days). */
    retentionMs: z
      .number()
      .int()
      .min(60_000)
      .default(90 * DAY_MS),
  })
  .prefault({});

export type AuditConfig = z.infer<typeof auditConfigSchema>;
