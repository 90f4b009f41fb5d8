import { z } from 'zod';
import { asOfMsSchema, partitionSchema } from './common';
import { browseInputSchema, cursorSchema, keyPartitionSchema, messageRowSchema } from './messages';

/*
 * The live tail (`messages.tail`, a tRPC subscription): it starts at the end of the selected
 * partitions, or at `cursor` to resume a paused tail, and streams the records appended from then on
 * that pass the same filters as the search, in the search's row shape. Every event carries the
 * cursor after it, so a client that unsubscribes (Pause) can resume exactly there.
 */

export const tailInputSchema = browseInputSchema
  .pick({
    topic: true,
    decode: true,
    partitions: true,
    filters: true,
    allPartitions: true,
    maxValueBytes: true,
    isolation: true,
  })
  .extend({
    /** The partitions to tail (default all); an empty list would tail nothing, so it is refused. */
    partitions: z.array(partitionSchema).min(1).max(1000).optional(),
    /** Resume here (per-partition next offsets, as the search's cursors); default the current end. */
    cursor: cursorSchema.optional(),
    /**
     * Set by tRPC's SSE client when it reconnects after a dropped connection: the id of the last
     * event it got, which is that event's cursor (the router sends every event `tracked` by it).
     * It takes precedence over `cursor`, so a reconnected tail continues where the old one was.
     */
    lastEventId: cursorSchema.nullish(),
  });

const countersShape = {
  /** Records appended to the tailed partitions since the tail started (matching or not). */
  arrivedRecords: z.number().int(),
  /** Rows sent (records that matched the filters and fitted the rate cap). */
  sentRows: z.number().int(),
  /** Records passed over unread because matches came faster than the rate cap. */
  skippedRecords: z.number().int(),
};

/** The events of `messages.tail`: started, then rows and stats as records arrive, ended at the row cap. */
export const tailEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('started'),
    asOfMs: asOfMsSchema,
    cursor: z.string(),
    keyPartition: keyPartitionSchema,
    /** The server's caps: rows per second, and rows per subscription. */
    maxRowsPerSecond: z.number().int(),
    maxRows: z.number().int(),
  }),
  z.object({ type: z.literal('rows'), rows: z.array(messageRowSchema), cursor: z.string() }),
  z.object({ type: z.literal('stats'), asOfMs: asOfMsSchema, cursor: z.string(), ...countersShape }),
  z.object({
    type: z.literal('ended'),
    reason: z.enum(['row-cap']),
    asOfMs: asOfMsSchema,
    cursor: z.string(),
    ...countersShape,
  }),
]);

export type TailInput = z.infer<typeof tailInputSchema>;
export type TailEvent = z.infer<typeof tailEventSchema>;
