/**
 * What `lk report` draws with, in a file of its own once built (dist/report.cjs, with Apache ECharts): figures from
 * the mirror and the page made of them. Nothing here throws lk's error classes (a second bundle has copies of its own,
 * which src/cli.ts would not recognise): bad input is refused earlier, by period.ts in the program.
 */
export { datedSpan, isEmpty, reportFigures } from './figures.js';
export { reportPage } from './page.js';
