/**
 * What `lk report` draws with, in a file of its own once built (dist/report.cjs, with Apache ECharts): figures from
 * the mirror and the page made of them. Bad input is refused earlier, by period.ts in the program; an error thrown here
 * (an old mirror) is still one of lk's, whose copy of LkError src/cli.ts recognises (util/errors.ts).
 */
export { dataYears, datedSpan, isEmpty, reportFigures } from './figures.js';
export { reportPage } from './page.js';
