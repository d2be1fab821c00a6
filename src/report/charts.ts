import { createHash } from 'node:crypto';
import { init, use } from 'echarts/core';
import { BarChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

/**
 * Bar charts as SVG text, drawn by Apache ECharts' server-side renderer: no browser, no DOM, no script in the page.
 * Only the pieces used are registered (a quarter of ECharts' size); the build puts this module and ECharts in a file
 * of their own (dist/report-charts.cjs), read by `lk report` alone. Colours work on a light and a dark background
 * alike: the page's CSS sets the text colour, the grid is a translucent grey.
 */
use([BarChart, GridComponent, LegendComponent, AriaComponent, SVGRenderer]);

export interface BarSeries {
  name: string;
  values: number[];
  colour: string;
}

export interface BarChartSpec {
  /** What the chart shows, for screen readers (the table beside it holds the numbers). */
  label: string;
  categories: string[];
  series: BarSeries[];
  /** A short chart (a week's days, ratings). */
  short?: boolean;
}

/**
 * Drawn 340 wide, the width a phone 390 px wide gives it: its 12 px text is shown at 11.4 px there, and no larger
 * than 16 px where the page caps its width (page-style.ts). A wider drawing would be scaled down to 7 px on a phone.
 */
const WIDTH = 340;

const AXIS = 'rgba(127, 127, 127, 0.9)';
const GRID = 'rgba(127, 127, 127, 0.25)';

/**
 * Charts drawn in this process, by what they show: a chart is the same bytes for the same spec (stableClassNames), and
 * drawing is most of a year page's time. lk serve draws a year's charts for /report/YEAR.html and again for
 * /site/year/YEAR.html and each new ETag; lk publish and lk report once each. The latest few hundred are kept.
 */
const drawn = new Map<string, string>();
const DRAWN_KEPT = 256;

export function barChartSvg(spec: BarChartSpec): string {
  const key = JSON.stringify(spec);
  const known = drawn.get(key);
  if (known !== undefined) {
    drawn.delete(key);
    drawn.set(key, known);
    return known;
  }
  const svg = drawBarChart(spec);
  drawn.set(key, svg);
  if (drawn.size > DRAWN_KEPT) drawn.delete(drawn.keys().next().value!);
  return svg;
}

/** A chart drawn anew (barChartSvg keeps what it drew): the same bytes for the same spec whenever it is drawn. */
export function drawBarChart(spec: BarChartSpec): string {
  const width = WIDTH;
  const height = spec.short ? 180 : 260;
  // A category label is about 7 px a character at 12 px: turned when the row of them would be wider than the chart.
  const labelWidth = Math.max(...spec.categories.map((category) => category.length)) * 7 + 6;
  const rotate = labelWidth * spec.categories.length > width - 40 ? (labelWidth > 30 ? 90 : 45) : 0;
  const chart = init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    const legend = spec.series.length > 1;
    chart.setOption({
      animation: false,
      aria: { enabled: true, label: { description: spec.label } },
      textStyle: { fontFamily: 'system-ui, sans-serif' },
      legend: legend ? { top: 0, itemWidth: 12, itemHeight: 12, textStyle: { color: AXIS } } : undefined,
      grid: { left: 8, right: 8, top: legend ? 36 : 12, bottom: 8, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
      xAxis: {
        type: 'category',
        data: spec.categories,
        axisLine: { lineStyle: { color: AXIS } },
        axisTick: { show: false },
        axisLabel: { color: AXIS, interval: 0, hideOverlap: true, rotate },
      },
      yAxis: { type: 'value', minInterval: 1, axisLabel: { color: AXIS }, splitLine: { lineStyle: { color: GRID } } },
      series: spec.series.map((series) => ({
        name: series.name,
        type: 'bar',
        stack: 'all',
        data: series.values,
        itemStyle: { color: series.colour },
        barMaxWidth: 28,
      })),
    });
    return stableClassNames(chart.renderToSVGString());
  } finally {
    chart.dispose();
  }
}

/**
 * zrender names a chart's hover classes from counters that run for the whole process (zr33-cls-90): the same figures
 * drawn again (lk serve makes a report more than once) would give other bytes. Renamed from the chart itself, in the
 * order they appear (z3f9a1c-0): the same chart gives the same names in any process, two different charts different
 * ones; and shorter names, as they repeat on every bar.
 */
function stableClassNames(svg: string): string {
  const local = new Map<string, number>();
  const numbered = svg.replace(/\bzr\d+-cls-\d+\b/g, (name) => {
    if (!local.has(name)) local.set(name, local.size);
    return `\u{E000}${local.get(name)!}\u{E000}`; // a placeholder no chart text holds
  });
  const chart = createHash('sha256').update(numbered).digest('hex').slice(0, 6);
  return numbered.replace(/\u{E000}(\d+)\u{E000}/gu, (_name, index: string) => `z${chart}-${index}`);
}
