'use client';

import { useSubscription } from '@trpc/tanstack-react-query';
import { useState } from 'react';
import type { TailEvent, TailInput } from '../../../../../server/api/schemas/message-tail';
import type { KeyPartition, MessageRow } from '../../../../../server/api/schemas/messages';
import { gatewayError } from '../../../../../trpc/errors';
import { useTRPC } from '../../../../../trpc/react';
import { addSample, type TailSample, tailRates } from './tail-rate';

/** The most rows the tail keeps on screen; older ones are dropped (and counted) beyond it. */
export const tailRowCap = 1_000;

export type LiveTailState = {
  /** Newest first. */
  rows: MessageRow[];
  droppedRows: number;
  skippedRecords: number;
  arrivedPerSecond: number;
  sentPerSecond: number;
  maxRowsPerSecond: number | undefined;
  keyPartition: KeyPartition;
  asOfMs: number | undefined;
  paused: boolean;
  /** The server's row cap for one subscription was reached; Resume continues. */
  capped: boolean;
  connected: boolean;
  error: string | undefined;
  pause: () => void;
  resume: () => void;
};

/** Adds the current subscription's skipped count to the earlier ones' (idempotent once folded). */
function foldSkipped(skipped: { before: number; now: number }) {
  return { before: skipped.before + skipped.now, now: 0 };
}

/**
 * Runs a live tail (the `messages.tail` subscription). Rows are kept newest first: a tail's
 * question is "what is arriving now", so the newest record sits at the top where the eye is,
 * stays in view without scrolling, and the row cap drops the oldest rows off the bottom.
 *
 * Pause unsubscribes, so the server stops reading, and keeps the cursor of the last event; Resume
 * subscribes again from that cursor, so the records appended while paused arrive first (within the
 * server's rate cap) and none is missed silently. A dropped connection is the same without the
 * click: tRPC's client reconnects with the last event's cursor (`lastEventId`). Mount it with a key
 * per tail.
 */
export function useLiveTail(input: TailInput): LiveTailState {
  const trpc = useTRPC();
  const [rows, setRows] = useState<MessageRow[]>([]);
  const [receivedRows, setReceivedRows] = useState(0);
  const [samples, setSamples] = useState<TailSample[]>([]);
  // What earlier subscriptions skipped, and what the current one says it has (each counts from zero).
  const [skipped, setSkipped] = useState({ before: 0, now: 0 });
  const [maxRowsPerSecond, setMaxRowsPerSecond] = useState<number | undefined>();
  const [keyPartition, setKeyPartition] = useState<KeyPartition>(null);
  const [asOfMs, setAsOfMs] = useState<number | undefined>();
  const [cursor, setCursor] = useState<string | undefined>();
  const [resumeCursor, setResumeCursor] = useState<string | undefined>(input.cursor);
  const [paused, setPaused] = useState(false);
  const [capped, setCapped] = useState(false);
  const [connected, setConnected] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const enabled = !paused && !capped && error === undefined;

  const stopAt = (last: string | undefined) => {
    setResumeCursor(last);
    setConnected(false);
    setSkipped(foldSkipped);
    setSamples([]);
  };

  useSubscription(
    trpc.messages.tail.subscriptionOptions(
      { ...input, cursor: resumeCursor },
      {
        enabled,
        // Every event is tracked by its cursor: when the connection drops, tRPC's client reconnects
        // with the last one as `lastEventId`, and the server continues from there.
        onData: ({ data: event }: { data: TailEvent }) => {
          setCursor(event.cursor);
          switch (event.type) {
            case 'started':
              // A reconnected subscription counts from zero again: keep what the earlier one skipped.
              setSkipped(foldSkipped);
              setConnected(true);
              setAsOfMs(event.asOfMs);
              setKeyPartition(event.keyPartition);
              setMaxRowsPerSecond(event.maxRowsPerSecond);
              // The counters start at zero here: the baseline the first records' rate is measured from.
              setSamples([{ atMs: event.asOfMs, arrivedRecords: 0, sentRows: 0 }]);
              break;
            case 'rows': {
              const incoming = [...event.rows].reverse();
              setRows((current) => [...incoming, ...current].slice(0, tailRowCap));
              setReceivedRows((received) => received + event.rows.length);
              break;
            }
            case 'stats':
              setAsOfMs(event.asOfMs);
              setSkipped((current) => ({ ...current, now: event.skippedRecords }));
              setSamples((current) =>
                addSample(current, {
                  atMs: event.asOfMs,
                  arrivedRecords: event.arrivedRecords,
                  sentRows: event.sentRows,
                }),
              );
              break;
            case 'ended':
              setSkipped((current) => ({ ...current, now: event.skippedRecords }));
              stopAt(event.cursor);
              setCapped(true);
              break;
          }
        },
        onError: (failure) => setError(gatewayError(failure).message),
      },
    ),
  );

  const rates = tailRates(samples);
  return {
    rows,
    droppedRows: Math.max(0, receivedRows - rows.length),
    skippedRecords: skipped.before + skipped.now,
    ...rates,
    maxRowsPerSecond,
    keyPartition,
    asOfMs,
    paused: paused || capped,
    capped,
    connected: enabled && connected,
    error,
    pause: () => {
      stopAt(cursor);
      setPaused(true);
    },
    resume: () => {
      setPaused(false);
      setCapped(false);
    },
  };
}
