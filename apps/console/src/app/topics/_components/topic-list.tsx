'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Checkbox, ListPager, Select, Toolbar } from '@weir/ui';
import { useMemo, useState } from 'react';
import { useTRPC } from '../../../trpc/react';
import { ListPanel } from '../../_components/list-panel';
import { ListSearch } from '../../_components/list-search';
import { useListParams } from '../../_components/use-list-params';
import { CreateTopicDialog } from './create-topic-dialog';
import { pageSizeOptions, topicListInput, topicListParams, topicSortKeys } from './topic-list-params';
import { TopicTable } from './topic-table';

/** The topic list with its toolbar and pager; every control writes to the URL. */
export function TopicList() {
  const trpc = useTRPC();
  const { params, filter, sort, paging } = useListParams(topicListParams, { sortKeys: topicSortKeys });
  const [creating, setCreating] = useState(false);
  const query = useQuery({
    ...trpc.topics.list.queryOptions(topicListInput(params)),
    // Keeps the current page on screen while the next one loads, so the table does not flash.
    placeholderData: keepPreviousData,
  });
  const names = useMemo(() => query.data?.topics.map((topic) => topic.name) ?? [], [query.data]);
  const trends = useQuery({
    ...trpc.topics.throughputTrends.queryOptions({ topics: names }),
    enabled: names.length > 0,
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

  return (
    <>
      <Toolbar label="Topic filters">
        <ListSearch
          label="Search topics"
          value={params.q}
          onSearch={(q, history) => filter({ q }, history)}
        />
        <Checkbox
          label="Show internal topics"
          checked={params.internal}
          onChange={(event) => filter({ internal: event.target.checked })}
        />
        <Select
          aria-label="Page size"
          options={pageSizeOptions}
          value={String(params.size)}
          onChange={(event) => filter({ size: Number(event.target.value) })}
        />
        <div className="ml-auto">
          <Button variant="primary" onClick={() => setCreating(true)}>
            Create topic
          </Button>
        </div>
      </Toolbar>
      <ListPanel title="Topic list" query={query} errorTitle="Could not read the topic list">
        {(list) => (
          <>
            <TopicTable topics={list.topics} {...sort} search={params.q} trends={trends.data?.trends} />
            <ListPager label="Topic pages" emptySummary="No topics" total={list.totalCount} {...paging} />
          </>
        )}
      </ListPanel>
      <CreateTopicDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}
