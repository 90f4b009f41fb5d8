'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Panel, Select } from '@weir/ui';
import { parseAsStringLiteral, useQueryStates } from 'nuqs';
import { useMemo } from 'react';
import { useTRPC } from '../../../../trpc/react';
import { formatBytesPerSecond, formatPerSecond } from '../../../_components/format-rate';
import { formatDuration } from '../../../_components/history/format-duration';
import { HistoryChart, type HistorySeries } from '../../../_components/history/history-chart';
import {
  HISTORY_RANGE_LABELS,
  historyRangeOptions,
  historyRangeParser,
} from '../../../_components/history/history-ranges';
import { QueryAsOf } from '../../../_components/query-as-of';
import { QueryState } from '../../../_components/query-state';

const RATE_UNITS = ['records', 'bytes'] as const;

const rateUnitOptions = [
  { value: 'records', label: 'Records per second' },
  { value: 'bytes', label: 'Bytes per second' },
];

/**
 * The topic's produce and consume rates over time, as the brokers sampled its client traffic;
 * the range and the unit are URL state (`history`, `rate`).
 */
export function ThroughputHistoryPanel({ topic }: { topic: string }) {
  const trpc = useTRPC();
  const [{ history: since, rate: unit }, setParams] = useQueryStates({
    history: historyRangeParser,
    rate: parseAsStringLiteral(RATE_UNITS).withDefault('records'),
  });
  const query = useQuery({
    ...trpc.topics.throughputHistory.queryOptions({ topic, since }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const series = useMemo((): HistorySeries[] => {
    const data = query.data;
    if (data === undefined) return [];
    return unit === 'bytes'
      ? [
          { name: 'Produced', values: data.bytesInPerSecond },
          { name: 'Consumed', values: data.bytesOutPerSecond },
        ]
      : [
          { name: 'Produced', values: data.recordsInPerSecond },
          { name: 'Consumed', values: data.recordsOutPerSecond },
        ];
  }, [query.data, unit]);
  const format = unit === 'bytes' ? formatBytesPerSecond : formatPerSecond;

  return (
    <Panel
      title="Produce and consume rates"
      actions={
        <>
          <Select
            aria-label="Rate chart range"
            value={since}
            options={historyRangeOptions}
            onChange={(event) => void setParams({ history: event.target.value as typeof since })}
          />
          <Select
            aria-label="Rate chart unit"
            value={unit}
            options={rateUnitOptions}
            onChange={(event) => void setParams({ rate: event.target.value as typeof unit })}
          />
          <QueryAsOf query={query} />
        </>
      }
    >
      <QueryState query={query} errorTitle="Could not read the throughput history">
        {(history) => (
          <div className="flex flex-col gap-3">
            <HistoryChart
              startMs={history.startMs}
              resolutionMs={history.resolutionMs}
              series={series}
              stacked={false}
              formatValue={format}
              summary={`Produce and consume rates of ${topic}, ${HISTORY_RANGE_LABELS[history.since].toLowerCase()}: ${
                history.recordsInPerSecond.filter((value) => value !== null).length
              } samples`}
              testId="throughput-history-chart"
            />
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              {history.sampleIntervalMs < 0
                ? 'The brokers keep no history (stats.history.enabled is off).'
                : `Client traffic sampled by the brokers every ${formatDuration(history.sampleIntervalMs / 1000)}, one point per ${formatDuration(history.resolutionMs / 1000)}; replication is not counted.`}
            </p>
          </div>
        )}
      </QueryState>
    </Panel>
  );
}
