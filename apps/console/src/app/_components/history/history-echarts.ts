import { LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  DataZoomComponent,
  type DataZoomComponentOption,
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import { type ComposeOption, init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

/*
 * The parts of ECharts the lag and throughput charts use, registered once: line series on a time
 * axis, drawn as SVG, for the same reasons as the replication timeline's (timeline-echarts.ts:
 * elements a test and a screen reader can find; no code evaluated, so the CSP's script policy
 * is untouched). Imported only in the browser (history-chart.tsx).
 */
use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, SVGRenderer]);

export type HistoryChartOption = ComposeOption<
  | LineSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
>;

export { init };
