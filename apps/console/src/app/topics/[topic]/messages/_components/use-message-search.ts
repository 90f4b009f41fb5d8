'use client';

import { useSubscription } from '@trpc/tanstack-react-query';
import { useState } from 'react';
import type {
  KeyPartition,
  MessageRow,
  PartitionPosition,
  SearchEvent,
  SearchInput,
} from '../../../../../server/api/schemas/messages';
import { gatewayError } from '../../../../../trpc/errors';
import { useTRPC } from '../../../../../trpc/react';

type DoneEvent = Extract<SearchEvent, { type: 'done' }>;

export type SearchProgress = {
  phase: 'connecting' | 'resolving-offsets' | 'scanning' | 'done';
  scannedRecords: number;
  scannedBytes: number;
  matchedRecords: number;
  elapsedMs: number;
  partitions: PartitionPosition[];
};

export type MessageSearchState = {
  rows: MessageRow[];
  progress: SearchProgress;
  done: DoneEvent | undefined;
  asOfMs: number | undefined;
  /** The partition a key filter narrowed the search to, once the server says so. */
  keyPartition: KeyPartition;
  error: string | undefined;
  running: boolean;
  stopped: boolean;
  stop: () => void;
};

/** The most rows one page may hold; the server caps a page at 5,000 too. */
const rowCap = 5_000;

const initialProgress: SearchProgress = {
  phase: 'connecting',
  scannedRecords: 0,
  scannedBytes: 0,
  matchedRecords: 0,
  elapsedMs: 0,
  partitions: [],
};

/**
 * Runs one streamed search (a tRPC subscription over SSE) and folds its events into rows and
 * progress. Stop unsubscribes, which aborts the scan on the server; rows already received stay.
 * Mount it with a key per search so a new search starts from a clean state.
 */
export function useMessageSearch(input: SearchInput): MessageSearchState {
  const trpc = useTRPC();
  const [rows, setRows] = useState<MessageRow[]>([]);
  const [progress, setProgress] = useState<SearchProgress>(initialProgress);
  const [done, setDone] = useState<DoneEvent | undefined>();
  const [asOfMs, setAsOfMs] = useState<number | undefined>();
  const [keyPartition, setKeyPartition] = useState<KeyPartition>(null);
  const [error, setError] = useState<string | undefined>();
  const [stopped, setStopped] = useState(false);
  const enabled = !stopped && done === undefined && error === undefined;

  useSubscription(
    trpc.messages.search.subscriptionOptions(input, {
      enabled,
      onData: (event: SearchEvent) => {
        switch (event.type) {
          case 'phase':
            setAsOfMs(event.asOfMs);
            setKeyPartition(event.keyPartition);
            setProgress((current) => ({ ...current, phase: event.phase }));
            break;
          case 'progress':
            setProgress((current) => ({
              ...current,
              ...event,
              phase: current.phase === 'done' ? 'done' : 'scanning',
            }));
            break;
          case 'rows':
            setRows((current) => [...current, ...event.rows].slice(0, rowCap));
            break;
          case 'done':
            setAsOfMs(event.asOfMs);
            setDone(event);
            setProgress((current) => ({
              ...current,
              phase: 'done',
              scannedRecords: event.scannedRecords,
              matchedRecords: event.matchedRecords,
            }));
            break;
        }
      },
      onError: (failure) => setError(gatewayError(failure).message),
    }),
  );

  return {
    rows,
    progress,
    done,
    asOfMs,
    keyPartition,
    error,
    running: enabled,
    stopped,
    stop: () => setStopped(true),
  };
}
