import { escapeHtml } from '../output/wording/feed-text.js';

/**
 * The frame of every page lk publish writes: landmarks (header, nav, main, footer), a skip link, one inline style
 * sheet (light and dark by the reader's colour scheme, readable from 320 px up, printable) and relative links only, so
 * the site works from any sub-path, any static host and a folder opened from file://. Nothing is loaded from anywhere.
 */

export const html = escapeHtml;

/** The site's pages a nav links, by their file (relative to the site's root). */
const NAV: [file: string, label: string][] = [
  ['index.html', 'Home'],
  ['diary.html', 'Diary'],
  ['lists.html', 'Lists'],
  ['years.html', 'Years'],
];

export interface Frame {
  /** The page's own title (the site's name follows it). */
  title: string;
  siteName: string;
  /** The page's file, relative to the site's root (`lists/3.html`): links are made relative to its folder. */
  file: string;
  /** When the data are from (the mirror's last change), as the footer says it. */
  asOf: number;
  body: string;
}

/** `target` (relative to the site's root) as a link from the page at `from`. */
export function linkFrom(from: string, target: string): string {
  const depth = from.split('/').length - 1;
  return `${'../'.repeat(depth)}${target}`;
}

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1a1a1a;--muted:#555;--line:#d6d6d6;--link:#0b57d0;--mark:#f2f2f2}
@media (prefers-color-scheme:dark){:root{--bg:#141414;--fg:#ececec;--muted:#b3b3b3;--line:#3a3a3a;--link:#8ab4f8;--mark:#222}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:var(--link);overflow-wrap:anywhere}
a:focus-visible{outline:2px solid var(--link);outline-offset:2px}
.skip{position:absolute;left:-100vw}.skip:focus{left:1rem;top:1rem;background:var(--bg);padding:.25rem .5rem}
header,main,footer{max-width:50rem;margin:0 auto;padding:0 1rem}
header{border-bottom:1px solid var(--line);padding-top:1rem}
.site{margin:0;font-weight:600;font-size:1.1rem}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.5rem 0;padding:0}
nav a[aria-current]{font-weight:600;text-decoration:none;color:var(--fg)}
h1{font-size:1.6rem;line-height:1.25;margin:1.25rem 0 .5rem;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.75rem 0 .5rem}
p,li{overflow-wrap:anywhere}
.muted,small{color:var(--muted)}small{font-size:inherit}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.95rem}
caption{text-align:left;color:var(--muted);padding:.25rem 0}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem .35rem 0;border-bottom:1px solid var(--line)}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
time{white-space:nowrap}
.cards{display:flex;flex-wrap:wrap;gap:1rem}.cards img{max-width:100%;height:auto}
.pages{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;margin:1.5rem 0}
footer{border-top:1px solid var(--line);margin-top:2.5rem;padding-top:.75rem;padding-bottom:2rem;color:var(--muted);font-size:.9rem}
@media print{nav,.skip,.pages{display:none}body{background:#fff;color:#000}a{color:#000}header,footer{border-color:#999}}
`.trim();

export function page(frame: Frame): string {
  const link = (target: string) => html(linkFrom(frame.file, target));
  const nav = NAV.map(([file, label]) => {
    const current = file === frame.file || (file === 'diary.html' && /^diary-\d+\.html$/.test(frame.file)) ? ' aria-current="page"' : '';
    return `<li><a href="${link(file)}"${current}>${label}</a></li>`;
  }).join('');
  const asOf = new Date(frame.asOf).toISOString().slice(0, 10);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>${html(frame.title === frame.siteName ? frame.siteName : `${frame.title} · ${frame.siteName}`)}</title>
<link rel="alternate" type="application/atom+xml" title="${html(frame.siteName)}: activity" href="${link('feed.atom')}">
<link rel="alternate" type="application/feed+json" title="${html(frame.siteName)}: activity" href="${link('feed.json')}">
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<p class="site"><a href="${link('index.html')}">${html(frame.siteName)}</a></p>
<nav aria-label="Site"><ul>${nav}<li><a href="${link('feed.atom')}">Feed</a></li></ul></nav>
</header>
<main id="main">
${frame.body}
</main>
<footer>
<p>From a personal media library, as of <time datetime="${asOf}">${asOf}</time>. Made with lk.</p>
</footer>
</body>
</html>
`;
}
