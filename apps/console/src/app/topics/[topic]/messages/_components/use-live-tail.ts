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

/**
 * Runs a live tail (the `messages.tail` subscription). Rows are kept newest first: a tail's
 * question is "what is arriving now", so the newest record sits at the top where the eye is,
 * stays in view without scrolling, and the row cap drops the oldest rows off the bottom.
 *
 * Pause unsubscribes, so the server stops reading, and keeps the cursor of the last event; Resume
 * subscribes again from that cursor, so the records appended while paused arrive first (within the
 * server's rate cap) and none is missed silently. Mount it with a key per tail.
 */
export function useLiveTail(input: TailInput): LiveTailState {
  const trpc = useTRPC();
  const [rows, setRows] = useState<MessageRow[]>([]);
  const [receivedRows, setReceivedRows] = useState(0);
  const [samples, setSamples] = useState<TailSample[]>([]);
  const [skippedBefore, setSkippedBefore] = useState(0);
  const [skippedNow, setSkippedNow] = useState(0);
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
    // Each subscription counts from zero: keep what the earlier ones skipped.
    setSkippedBefore((before) => before + skippedNow);
    setSkippedNow(0);
    setSamples([]);
  };

  useSubscription(
    trpc.messages.tail.subscriptionOptions(
      { ...input, cursor: resumeCursor },
      {
        enabled,
        onData: (event: TailEvent) => {
          setCursor(event.cursor);
          switch (event.type) {
            case 'started':
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
              setSkippedNow(event.skippedRecords);
              setSamples((current) =>
                addSample(current, {
                  atMs: event.asOfMs,
                  arrivedRecords: event.arrivedRecords,
                  sentRows: event.sentRows,
                }),
              );
              break;
            case 'ended':
              setSkippedNow(event.skippedRecords);
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
    skippedRecords: skippedBefore + skippedNow,
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
