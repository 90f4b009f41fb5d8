'use client';

import { useEffect, useMemo, useRef } from 'react';
import type {
  ClusterEventKindName,
  ClusterEventView,
} from '../../../../server/api/schemas/replication-events';
import { EVENT_KIND_STYLES } from './event-kinds';
import { laneOf, orderLanes } from './timeline-lanes';

type TimelineChartProps = {
  events: readonly ClusterEventView[];
  /** One partition's timeline: lanes are brokers rather than partitions. */
  onePartition: boolean;
};

const LANE_HEIGHT_PX = 32;
const CHART_FRAME_PX = 110;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** What the chart shows, in words, for screen readers (and a browser test): counts by kind. */
export function chartSummary(events: readonly ClusterEventView[]): string {
  const counts = new Map<ClusterEventKindName, number>();
  for (const event of events) counts.set(event.kind, (counts.get(event.kind) ?? 0) + 1);
  const parts = [...counts].map(([kind, count]) => `${count} ${EVENT_KIND_STYLES[kind].label}`);
  return `Replication timeline of ${events.length} event${events.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/**
 * The events on a time axis, one lane per partition (or per broker for one partition's timeline),
 * a marker per event coloured and shaped by its kind, leader changes labelled with their epoch
 * and cause. ECharts draws it (see timeline-echarts.ts for why it and why SVG); it is loaded in
 * the browser after the first render, and the list below the chart carries the same events.
 */
export function TimelineChart({ events, onePartition }: TimelineChartProps) {
  const container = useRef<HTMLDivElement>(null);
  // Kept across renders, so the chart is drawn again only when the events change.
  const lanes = useMemo(
    () => orderLanes(events.map((event) => laneOf(event, onePartition))),
    [events, onePartition],
  );
  const height = Math.max(160, lanes.length * LANE_HEIGHT_PX + CHART_FRAME_PX);

  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    let disposed = false;
    let cleanup = () => {};
    void import('./timeline-echarts').then(({ init }) => {
      if (disposed) return;
      const chart = init(element, undefined, { renderer: 'svg' });
      const kinds = (Object.keys(EVENT_KIND_STYLES) as ClusterEventKindName[]).filter((kind) =>
        events.some((event) => event.kind === kind),
      );
      const times = events.map((event) => event.atMs);
      const [first, last] = [Math.min(...times), Math.max(...times)];
      // Events cluster (one failure gives several within a second), so the axis spans the events
      // themselves with some room either side, not the whole range read; the list states the range.
      const pad = Math.max(2_000, (last - first) * 0.05);
      chart.setOption({
        animation: false,
        // Zinc 500 text and zinc 400 lines read on the light and the dark theme alike, so the chart
        // needs no redraw when the theme is toggled.
        textStyle: { color: '#71717a' },
        grid: { left: 8, right: 24, top: 40, bottom: 56, containLabel: true },
        legend: {
          top: 0,
          data: kinds.map((kind) => EVENT_KIND_STYLES[kind].label),
          textStyle: { color: '#71717a' },
        },
        tooltip: {
          trigger: 'item',
          formatter: (params: unknown) => {
            const index = (params as { data: [number, string, number] }).data[2];
            const event = events[index];
            if (event === undefined) return '';
            return `${escapeHtml(new Date(event.atMs).toISOString())}<br/>${escapeHtml(event.description)}`;
          },
        },
        xAxis: {
          type: 'time',
          min: first - pad,
          max: last + pad,
          axisLine: { lineStyle: { color: '#a1a1aa' } },
          splitLine: { show: true, lineStyle: { color: '#a1a1aa', opacity: 0.25 } },
        },
        yAxis: {
          type: 'category',
          data: lanes,
          inverse: true,
          axisTick: { show: false },
          axisLine: { lineStyle: { color: '#a1a1aa' } },
          splitLine: { show: true, lineStyle: { color: '#a1a1aa', opacity: 0.25 } },
        },
        dataZoom: [
          { type: 'inside', xAxisIndex: 0 },
          { type: 'slider', xAxisIndex: 0, height: 18, bottom: 8 },
        ],
        series: kinds.map((kind) => {
          const style = EVENT_KIND_STYLES[kind];
          return {
            type: 'scatter' as const,
            name: style.label,
            symbol: style.symbol,
            symbolSize: kind === 'leader-change' ? 14 : 11,
            // A failover's leader change and ISR shrink share a millisecond and a lane: the leader
            // change sits a little higher and in front, so neither hides the other.
            ...(kind === 'leader-change' ? { symbolOffset: [0, -7], z: 3 } : {}),
            itemStyle: { color: style.colour },
            data: events.flatMap((event, index) =>
              event.kind === kind ? [[event.atMs, laneOf(event, onePartition), index]] : [],
            ),
            label:
              kind === 'leader-change'
                ? {
                    show: true,
                    position: 'top' as const,
                    fontSize: 10,
                    formatter: (params: unknown) => {
                      const event = events[(params as { data: [number, string, number] }).data[2]];
                      if (event === undefined) return '';
                      return [
                        event.leaderEpoch === undefined ? null : `epoch ${event.leaderEpoch}`,
                        event.cause ?? null,
                      ]
                        .filter((part) => part !== null)
                        .join(' · ');
                    },
                  }
                : { show: false },
          };
        }),
      });
      const observer = new ResizeObserver(() => chart.resize());
      observer.observe(element);
      cleanup = () => {
        observer.disconnect();
        chart.dispose();
      };
    });
    return () => {
      disposed = true;
      cleanup();
    };
  }, [events, lanes, onePartition]);

  return (
    <div
      ref={container}
      role="img"
      aria-label={chartSummary(events)}
      data-testid="replication-timeline-chart"
      className="w-full"
      style={{ height }}
    />
  );
}
