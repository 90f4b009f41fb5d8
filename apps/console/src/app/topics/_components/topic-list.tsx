'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AsOfIndicator, Button, Checkbox, formatCount, Input, Pager, Panel, Select, Toolbar } from '@weir/ui';
import { useQueryStates } from 'nuqs';
import { useState } from 'react';
import { useTRPC } from '../../../trpc/react';
import { QueryState } from '../../_components/query-state';
import { CreateTopicDialog } from './create-topic-dialog';
import {
  pageSizeOptions,
  type TopicSortKey,
  topicListInput,
  topicListParams,
  topicSortKeys,
} from './topic-list-params';
import { TopicTable } from './topic-table';

/** The topic list with its toolbar and pager; every control writes to the URL. */
export function TopicList() {
  const trpc = useTRPC();
  const [params, setParams] = useQueryStates(topicListParams);
  const [creating, setCreating] = useState(false);
  const query = useQuery({
    ...trpc.topics.list.queryOptions(topicListInput(params)),
    // Keeps the current page on screen while the next one loads, so the table does not flash.
    placeholderData: keepPreviousData,
  });

  const total = query.data?.totalCount ?? 0;
  const first = params.page * params.size;
  const last = Math.min(first + params.size, total);

  return (
    <>
      <Toolbar label="Topic filters">
        <Input
          type="search"
          aria-label="Search topics"
          placeholder="Search topics (press /)"
          className="h-8 w-72"
          value={params.q}
          onChange={(event) => void setParams({ q: event.target.value, page: 0 })}
        />
        <Checkbox
          label="Show internal topics"
          checked={params.internal}
          onChange={(event) => void setParams({ internal: event.target.checked, page: 0 })}
        />
        <Select
          aria-label="Page size"
          options={pageSizeOptions}
          value={String(params.size)}
          onChange={(event) => void setParams({ size: Number(event.target.value), page: 0 })}
        />
        <div className="ml-auto">
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create topic
          </Button>
        </div>
      </Toolbar>
      <Panel
        title="Topic list"
        flush
        actions={
          <AsOfIndicator
            asOfMs={query.data?.asOfMs}
            onRefresh={() => void query.refetch()}
            refreshing={query.isFetching}
          />
        }
      >
        <QueryState query={query} errorTitle="Could not read the topic list">
          {(list) => (
            <div className="flex flex-col gap-2">
              <TopicTable
                topics={list.topics}
                sort={{ column: params.sort, direction: params.desc ? 'desc' : 'asc' }}
                onSortChange={(column, direction) => {
                  const key = topicSortKeys.find((candidate) => candidate === column) as TopicSortKey;
                  void setParams({ sort: key, desc: direction === 'desc', page: 0 });
                }}
                search={params.q}
              />
              <Pager
                label="Topic pages"
                summary={
                  total === 0
                    ? 'No topics'
                    : `${formatCount(first + 1)}–${formatCount(last)} of ${formatCount(total)}`
                }
                onPrevious={params.page > 0 ? () => void setParams({ page: params.page - 1 }) : undefined}
                onNext={last < total ? () => void setParams({ page: params.page + 1 }) : undefined}
              />
            </div>
          )}
        </QueryState>
      </Panel>
      <CreateTopicDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
