'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatCount, Panel, Select } from '@weir/ui';
import { parseAsStringLiteral, useQueryStates } from 'nuqs';
import { useMemo } from 'react';
import { useTRPC } from '../../../../trpc/react';
import { formatDuration } from '../../../_components/history/format-duration';
import { HistoryChart, type HistorySeries } from '../../../_components/history/history-chart';
import {
  HISTORY_RANGE_LABELS,
  historyRangeOptions,
  historyRangeParser,
} from '../../../_components/history/history-ranges';
import { QueryAsOf } from '../../../_components/query-as-of';
import { QueryState } from '../../../_components/query-state';
import { TimeToZero } from './time-to-zero';

const LAG_VIEWS = ['partitions', 'total'] as const;

const lagViewOptions = [
  { value: 'partitions', label: 'Stacked by partition' },
  { value: 'total', label: 'Total' },
];

const formatLag = (value: number) => formatCount(Math.round(value));

/**
 * The group's lag over time as the broker sampled it, stacked by partition or in total, with the
 * time-to-zero estimate; the range and the view are URL state (`history`, `lag`).
 */
export function LagHistoryPanel({ groupId }: { groupId: string }) {
  const trpc = useTRPC();
  const [{ history: since, lag: view }, setParams] = useQueryStates({
    history: historyRangeParser,
    lag: parseAsStringLiteral(LAG_VIEWS).withDefault('partitions'),
  });
  const query = useQuery({
    ...trpc.groups.lagHistory.queryOptions({ groupId, since, partitions: view === 'partitions' }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const series = useMemo((): HistorySeries[] => {
    const data = query.data;
    if (data === undefined) return [];
    if (view === 'total' || data.partitions.length === 0)
      return [{ name: 'Total lag', values: data.totalLag }];
    return data.partitions.map(({ topic, partition, lag }) => ({
      name: `${topic} ${partition}`,
      values: lag,
    }));
  }, [query.data, view]);

  return (
    <Panel
      title="Lag over time"
      actions={
        <>
          <Select
            aria-label="Lag chart range"
            value={since}
            options={historyRangeOptions}
            onChange={(event) => void setParams({ history: event.target.value as typeof since })}
          />
          <Select
            aria-label="Lag chart view"
            value={view}
            options={lagViewOptions}
            onChange={(event) => void setParams({ lag: event.target.value as typeof view })}
          />
          <QueryAsOf query={query} />
        </>
      }
    >
      <QueryState query={query} errorTitle="Could not read the lag history">
        {(history) => {
          const sampled = history.totalLag.filter((value) => value !== null).length;
          return (
            <div className="flex flex-col gap-3">
              <TimeToZero estimate={history.timeToZero} />
              <HistoryChart
                startMs={history.startMs}
                resolutionMs={history.resolutionMs}
                series={series}
                stacked={view === 'partitions'}
                formatValue={formatLag}
                summary={`Lag of ${groupId}, ${HISTORY_RANGE_LABELS[history.since].toLowerCase()}: ${sampled} samples${
                  history.timeToZero.totalLag === null
                    ? ''
                    : `, now ${formatLag(history.timeToZero.totalLag)}`
                }`}
                testId="lag-history-chart"
              />
              <p className="text-xs text-zinc-500 dark:text-zinc-400">
                Sampled by the broker every {formatDuration(history.sampleIntervalMs / 1000)}; one point per{' '}
                {formatDuration(history.resolutionMs / 1000)}. Lag is the last stable offset minus the
                committed offset; the estimate divides it by how much faster the group consumes than its
                partitions grow.
              </p>
            </div>
          );
        }}
      </QueryState>
    </Panel>
  );
}
