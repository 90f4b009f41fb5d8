import { ScatterChart, type ScatterSeriesOption } from 'echarts/charts';
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
 * The parts of ECharts the timeline uses, registered once: a scatter series on a time axis and a
 * category axis of lanes, drawn as SVG. SVG rather than canvas so the chart's marks and labels are
 * elements a browser test and a screen reader can find. The console's Content-Security-Policy
 * allows inline styles (React renders style attributes too), which ECharts' SVG renderer sets on
 * its elements; it evaluates no code, so the script policy is untouched. This module is imported
 * only in the browser (see timeline-chart.tsx), keeping ECharts out of the server render.
 */
use([ScatterChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, SVGRenderer]);

export type TimelineChartOption = ComposeOption<
  | ScatterSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
>;

export { init };
