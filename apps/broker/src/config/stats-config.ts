import { z } from 'zod';

/**
 * The broker's own history of consumer lag and topic throughput (docs/architecture.md §9,
 * stats/history-store.ts): how often it samples, how often the store is written to the data
 * directory, and how many series it keeps at most. The tiers follow from the sampling interval
 * (stats/history-tiers.ts): every sample of the last hour (360 slots at the default 10 s), and
 * one-minute slots for 24 hours.
 */
export const statsConfigSchema = z
  .strictObject({
    history: z
      .strictObject({
        /** Off: no sampling, no file, and the history APIs answer empty series. */
        enabled: z.boolean().default(true),
        /** How often lag and throughput are sampled; the fine tier's resolution. */
        sampleIntervalMs: z.number().int().min(100).max(60_000).default(10_000),
        /** How often the store is written to `<dataDir>/stats-history.bin` (and at every stop). */
        persistIntervalMs: z.number().int().min(1000).default(60_000),
        /**
         * The most series kept (one per group partition, three per group, four per topic): the
         * store's memory and file are this many times the bytes per series, and a series beyond
         * it is not recorded until an older one ages out (24 hours without a sample).
         */
        maxSeries: z.number().int().min(10).max(1_000_000).default(5000),
      })
      .prefault({}),
  })
  .prefault({});

export type StatsConfig = z.infer<typeof statsConfigSchema>;
