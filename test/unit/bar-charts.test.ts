import { describe, expect, it } from 'vitest';
import { barChartSvg, drawBarChart, type BarChartSpec } from '../../src/report/charts.js';

// A chart is its spec's bytes, however often and in whatever order charts are drawn: zrender's counters, which run for
// the whole process, leave no trace (stableClassNames). barChartSvg keeps what it drew on that ground alone.

const spec = (label: string, values: number[]): BarChartSpec => ({
  label,
  categories: ['Jan', 'Feb', 'Mar'],
  series: [{ name: 'Films', values, colour: '#336699' }],
});

describe('bar charts', () => {
  it('drawn again after other charts, the same spec gives the same bytes; another spec other bytes', () => {
    const first = drawBarChart(spec('events by month', [1, 2, 3]));
    const other = drawBarChart(spec('pages by month', [4, 5, 6]));
    expect(drawBarChart(spec('events by month', [1, 2, 3]))).toBe(first);
    expect(other).not.toBe(first);
    expect(first).toMatch(/^<svg[\s\S]*<\/svg>$/);
  });

  it('barChartSvg answers what a fresh drawing gives, the first time and every time after', () => {
    const chart = spec('hours by month', [7, 0, 2]);
    expect(barChartSvg(chart)).toBe(drawBarChart(chart));
    drawBarChart(spec('something else', [9, 9, 9]));
    expect(barChartSvg(chart)).toBe(drawBarChart(chart));
  });
});
