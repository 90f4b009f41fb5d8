'use client';

import type { EChartsType } from 'echarts/core';
import { useEffect, useRef, useState } from 'react';
import type { HistoryChartOption } from './history-echarts';

export interface HistorySeries {
  name: string;
  /** One value per bucket from the chart's `startMs`; null where nothing was sampled. */
  values: readonly (number | null)[];
}

type HistoryChartProps = {
  startMs: number;
  resolutionMs: number;
  series: readonly HistorySeries[];
  /** Stacked areas (a group's partitions) rather than lines side by side (rates). */
  stacked: boolean;
  formatValue: (value: number) => string;
  /** What the chart shows, in words, for screen readers and tests. */
  summary: string;
  testId: string;
  heightPx?: number;
};

/** Zinc 500 text and zinc 400 lines read on the light and the dark theme alike. */
const TEXT_COLOUR = '#71717a';
const LINE_COLOUR = '#a1a1aa';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * Series on a time axis, drawn by ECharts as SVG once the module has loaded in the browser. A
 * bucket without a sample breaks the line rather than drawing a zero. Once drawn, the container
 * carries `data-render-ms`: the time from handing ECharts the data to its finished frame,
 * which the console benchmark reads (bench/console).
 */
export function HistoryChart({
  startMs,
  resolutionMs,
  series,
  stacked,
  formatValue,
  summary,
  testId,
  heightPx = 260,
}: HistoryChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<EChartsType | null>(null);

  // The chart is made once; new data only replaces its option (a refetch every few seconds).
  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    let made: EChartsType | undefined;
    let observer: ResizeObserver | undefined;
    let disposed = false;
    void import('./history-echarts').then(({ init }) => {
      if (disposed) return;
      made = init(element, undefined, { renderer: 'svg' });
      observer = new ResizeObserver(() => made?.resize());
      observer.observe(element);
      setChart(made);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      made?.dispose();
    };
  }, []);

  useEffect(() => {
    const element = container.current;
    if (chart === null || element === null) return;
    const beganMs = performance.now();
    const option: HistoryChartOption = {
      animation: false,
      textStyle: { color: TEXT_COLOUR },
      grid: { left: 8, right: 24, top: 36, bottom: 48, containLabel: true },
      legend: { top: 0, type: 'scroll', textStyle: { color: TEXT_COLOUR } },
      tooltip: {
        trigger: 'axis',
        formatter: (params: unknown) => {
          const points = params as { seriesName: string; value: [number, number | null] }[];
          const first = points[0];
          if (first === undefined) return '';
          const lines = points
            .filter((point) => point.value[1] !== null)
            .map((point) => `${escapeHtml(point.seriesName)}: ${escapeHtml(formatValue(point.value[1]!))}`);
          return [escapeHtml(new Date(first.value[0]).toISOString()), ...lines].join('<br/>');
        },
      },
      xAxis: {
        type: 'time',
        axisLine: { lineStyle: { color: LINE_COLOUR } },
        splitLine: { show: true, lineStyle: { color: LINE_COLOUR, opacity: 0.25 } },
      },
      yAxis: {
        type: 'value',
        min: 0,
        axisLabel: { formatter: (value: number) => formatValue(value) },
        splitLine: { show: true, lineStyle: { color: LINE_COLOUR, opacity: 0.25 } },
      },
      dataZoom: [
        { type: 'inside', xAxisIndex: 0 },
        { type: 'slider', xAxisIndex: 0, height: 16, bottom: 6 },
      ],
      series: series.map((one) => ({
        type: 'line' as const,
        name: one.name,
        showSymbol: false,
        connectNulls: false,
        sampling: 'lttb' as const,
        ...(stacked ? { stack: 'total', areaStyle: { opacity: 0.35 } } : {}),
        data: one.values.map((value, index) => [startMs + index * resolutionMs, value]),
      })),
    };
    const finished = () => {
      element.setAttribute('data-render-ms', (performance.now() - beganMs).toFixed(1));
      chart.off('finished', finished);
    };
    chart.on('finished', finished);
    chart.setOption(option, { notMerge: true });
    return () => {
      chart.off('finished', finished);
    };
  }, [chart, startMs, resolutionMs, series, stacked, formatValue]);

  return (
    <div
      ref={container}
      role="img"
      aria-label={summary}
      data-testid={testId}
      data-series={series.length}
      className="w-full"
      style={{ height: heightPx }}
    />
  );
}
