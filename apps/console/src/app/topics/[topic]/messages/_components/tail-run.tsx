'use client';

import { AsOfIndicator, Button, ErrorState, formatCount, Panel } from '@weir/ui';
import type { TailInput } from '../../../../../server/api/schemas/message-tail';
import { KeyPartitionNote } from './key-partition-note';
import type { MessageParams } from './message-params';
import { MessageTable, recordKey } from './message-table';
import { ReadCommittedToggle } from './read-committed-toggle';
import { ResultsLayout } from './results-layout';
import { tailRowCap, useLiveTail } from './use-live-tail';

type TailRunProps = {
  topic: string;
  input: TailInput;
  params: MessageParams;
  setParams: (next: Partial<MessageParams>) => void;
};

function formatRate(perSecond: number): string {
  return perSecond >= 10 ? formatCount(Math.round(perSecond)) : perSecond.toFixed(1);
}

/**
 * "End (new records only)" as a live tail: rows arrive as producers write them, newest first, with
 * Pause and Resume, the row cap and the live rate. The filters and partitions are the search's.
 */
export function TailRun({ topic, input, params, setParams }: TailRunProps) {
  const tail = useLiveTail(input);
  const open = tail.rows.find((row) => recordKey(row) === params.open);
  const state = tail.error
    ? 'Failed'
    : tail.capped
      ? 'Stopped at the row cap'
      : tail.paused
        ? 'Paused'
        : tail.connected
          ? 'Live'
          : 'Connecting…';

  return (
    <ResultsLayout
      topic={topic}
      open={open}
      params={params}
      setParams={setParams}
      results={
        <Panel
          title="Live tail"
          actions={
            <span className="inline-flex flex-wrap items-center gap-3">
              <ReadCommittedToggle params={params} setParams={setParams} />
              <AsOfIndicator asOfMs={tail.asOfMs} />
              {tail.paused ? (
                <Button size="sm" variant="primary" onClick={tail.resume}>
                  Resume
                </Button>
              ) : (
                <Button size="sm" onClick={tail.pause}>
                  Pause
                </Button>
              )}
            </span>
          }
        >
          <div className="flex flex-col gap-3">
            <div className="flex flex-wrap items-center gap-x-5 gap-y-1 text-xs text-zinc-600 dark:text-zinc-300">
              <span role="status" aria-live="polite" aria-label="Tail status" className="font-medium">
                {state} · {formatCount(tail.rows.length)} shown
              </span>
              <span className="tabular-nums">
                {formatRate(tail.arrivedPerSecond)} records/s arriving · {formatRate(tail.sentPerSecond)}{' '}
                shown/s
              </span>
              {tail.droppedRows > 0 ? (
                <span className="tabular-nums">
                  {formatCount(tail.droppedRows)} oldest rows dropped (keeps the newest{' '}
                  {formatCount(tailRowCap)})
                </span>
              ) : null}
              {tail.skippedRecords > 0 ? (
                <span className="tabular-nums text-amber-700 dark:text-amber-400">
                  {formatCount(tail.skippedRecords)} records skipped over the rate cap of{' '}
                  {formatCount(tail.maxRowsPerSecond ?? 0)} rows/s
                </span>
              ) : null}
            </div>
            <KeyPartitionNote
              keyPartition={tail.keyPartition}
              onSearchAll={() => setParams({ all: true, open: '', run: params.run + 1 })}
            />
            {tail.error ? <ErrorState title="The live tail failed" message={tail.error} /> : null}
            <MessageTable
              rows={tail.rows}
              openKey={params.open}
              compact={open !== undefined}
              onOpen={(key) => setParams({ open: key })}
              running={!tail.paused}
              mode={params.decode}
              emptyTitle={tail.paused ? 'No records arrived' : 'Waiting for new records…'}
            />
          </div>
        </Panel>
      }
    />
  );
}
