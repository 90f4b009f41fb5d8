'use client';

import { AsOfIndicator, ErrorState, Pager, Panel } from '@weir/ui';
import type { SearchInput } from '../../../../../server/api/schemas/messages';
import { KeyPartitionNote } from './key-partition-note';
import type { MessageParams } from './message-params';
import { MessageTable, recordKey } from './message-table';
import { ReadCommittedToggle } from './read-committed-toggle';
import { ResultsLayout } from './results-layout';
import { SearchProgress } from './search-progress';
import { useMessageSearch } from './use-message-search';

type SearchRunProps = {
  topic: string;
  input: SearchInput;
  params: MessageParams;
  setParams: (next: Partial<MessageParams>) => void;
};

/**
 * One page of one search: its live progress, rows, the open record and exact paging. Next pushes
 * this page's resolved cursor onto the `prev` stack in the URL and continues from `nextCursor`;
 * Previous pops the stack. Cursors are per-partition offsets, so neither repeats nor skips a record.
 */
export function SearchRun({ topic, input, params, setParams }: SearchRunProps) {
  const search = useMessageSearch(input);
  const { done } = search;
  const open = search.rows.find((row) => recordKey(row) === params.open);
  const pageNumber = params.prev.length + 1;
  const canGoNext =
    done !== undefined && (!done.done || done.budgetExhausted) && done.nextCursor !== done.cursor;

  return (
    <ResultsLayout
      topic={topic}
      open={open}
      params={params}
      setParams={setParams}
      results={
        <Panel
          title="Results"
          actions={
            <span className="inline-flex flex-wrap items-center gap-3">
              <ReadCommittedToggle params={params} setParams={setParams} />
              <AsOfIndicator
                asOfMs={search.asOfMs}
                onRefresh={search.running ? undefined : () => setParams({ run: params.run + 1 })}
              />
            </span>
          }
        >
          <div className="flex flex-col gap-3">
            <SearchProgress
              progress={search.progress}
              running={search.running}
              stopped={search.stopped}
              rowCount={search.rows.length}
              onStop={search.stop}
            />
            <KeyPartitionNote
              keyPartition={search.keyPartition}
              onSearchAll={() =>
                setParams({ all: true, cursor: '', prev: [], open: '', run: params.run + 1 })
              }
            />
            {search.error ? <ErrorState title="The search failed" message={search.error} /> : null}
            <MessageTable
              rows={search.rows}
              openKey={params.open}
              compact={open !== undefined}
              onOpen={(key) => setParams({ open: key })}
              running={search.running}
              mode={params.decode}
            />
            <Pager
              label="Message pages"
              summary={`Page ${pageNumber}${done?.budgetExhausted ? ' · scan budget reached, Next continues' : ''}${done?.done ? ' · end of the selected partitions' : ''}`}
              onPrevious={
                params.prev.length > 0
                  ? () =>
                      setParams({
                        cursor: params.prev.at(-1) ?? '',
                        prev: params.prev.slice(0, -1),
                        open: '',
                      })
                  : undefined
              }
              onNext={
                canGoNext && done
                  ? () =>
                      setParams({ cursor: done.nextCursor, prev: [...params.prev, done.cursor], open: '' })
                  : undefined
              }
            />
          </div>
        </Panel>
      }
    />
  );
}
