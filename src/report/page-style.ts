/**
 * The report's stylesheet: system fonts, light and dark from the reader's setting (prefers-color-scheme), a chart
 * and its table side by side where there is room, and print rules for A4 and Letter alike (no page size forced:
 * the printer's paper decides; nothing is cut across a page break).
 */
export const REPORT_CSS = `
:root { color-scheme: light dark; --bg: #fbfaf8; --fg: #1d1d1f; --muted: #5f6368; --card: #ffffff; --line: #e2e0dc; --accent: #5a4bd1; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #151517; --fg: #ececef; --muted: #a4a4ad; --card: #1f1f23; --line: #34343a; --accent: #a89cff; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
header, main { max-width: 72rem; margin: 0 auto; padding: 0 1.25rem; }
header { padding-top: 2rem; }
h1 { font-size: clamp(1.6rem, 4vw, 2.4rem); margin: 0 0 .25rem; line-height: 1.15; overflow-wrap: anywhere; }
h2 { font-size: 1.4rem; margin: 2.5rem 0 1rem; border-bottom: 2px solid var(--line); padding-bottom: .3rem; }
h3 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
.period, .quiet, .delta, caption { color: var(--muted); }
nav a { margin-right: .9rem; }
a { color: var(--accent); }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: .75rem; margin: 1rem 0; }
.fact { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: .75rem .9rem; }
.fact .value { display: block; font-size: 1.6rem; font-weight: 650; font-variant-numeric: tabular-nums; }
.fact .delta { display: block; font-size: .85rem; }
.moments { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 1rem 0; }
.moments dt { font-weight: 600; }
.moments dd { margin: 0; overflow-wrap: anywhere; }
figure.chart-with-table { display: grid; grid-template-columns: minmax(0, 3fr) minmax(16rem, 2fr); gap: 1rem 1.5rem; align-items: start;
  margin: 1.5rem 0; background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: 1rem; }
figcaption { grid-column: 1 / -1; font-weight: 600; }
.chart svg { width: 100%; max-width: 30rem; height: auto; display: block; margin: 0 auto; }
.chart svg text { fill: var(--muted); }
.numbers { max-height: 26rem; overflow: auto; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-size: .8rem; padding-bottom: .3rem; }
th, td { padding: .2rem .5rem; border-bottom: 1px solid var(--line); text-align: left; font-weight: normal; }
thead th { font-weight: 600; }
.n { text-align: right; }
ol.top { padding-left: 1.6rem; }
ol.top li { margin: .2rem 0; overflow-wrap: anywhere; }
.rating { display: inline-block; min-width: 1.8rem; padding: 0 .35rem; margin-left: .3rem; border-radius: .3rem; background: var(--line); text-align: center; font-variant-numeric: tabular-nums; }
.notes ul { padding-left: 1.2rem; }
main { padding-bottom: 3rem; }
@media (max-width: 44rem) {
  figure.chart-with-table { grid-template-columns: minmax(0, 1fr); padding: .75rem; }
  /* A table wider than the phone scrolls sideways in its own box instead of being cut. */
  .numbers { max-height: none; overflow-x: auto; }
  .numbers th { white-space: nowrap; }
  th, td { padding: .2rem .3rem; }
  table { font-size: .85rem; }
  .facts { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .fact .value { font-size: 1.3rem; }
}
@page { margin: 14mm 12mm; }
@media print {
  :root { --bg: #fff; --fg: #000; --muted: #444; --card: #fff; --line: #ccc; --accent: #000; color-scheme: light; }
  body { font-size: 10.5pt; }
  header, main { max-width: none; padding: 0; }
  nav { display: none; }
  h2 { break-after: avoid; }
  figure.chart-with-table, .fact, .moments, ol.top, table { break-inside: avoid; }
  figure.chart-with-table { grid-template-columns: 3fr 2fr; border-color: #ccc; }
  .numbers { max-height: none; overflow: visible; }
  a { text-decoration: none; }
}
`;
