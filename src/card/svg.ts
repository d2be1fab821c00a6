import { fitText, type TextStyle } from './measure.js';

/**
 * The frame every card is drawn in: one self-contained SVG (no script, no link, no image, no font to load), 495 px
 * wide like the README cards people already embed, its colours from a theme written into its own <style>, its name
 * and summary in <title> and <desc> for a screen reader (role="img", aria-labelledby).
 */

export const THEMES = ['light', 'dark', 'auto'] as const;
export type Theme = (typeof THEMES)[number];

export const CARD_WIDTH = 495;
/** The inner margin: every text is placed within [PAD, CARD_WIDTH - PAD]. */
export const PAD = 25;

/** The font stack the widths of ./measure.ts are conservative for (DejaVu Sans is its widest member). */
const FONTS = "'Segoe UI',Ubuntu,'Helvetica Neue',Helvetica,Arial,'DejaVu Sans',sans-serif,'Apple Color Emoji','Segoe UI Emoji','Noto Color Emoji'";

/** The colours of a theme, each a CSS class of the card. */
interface Palette {
  bg: string;
  border: string;
  title: string;
  text: string;
  muted: string;
  /** The heatmap's five levels, none to most. */
  levels: readonly [string, string, string, string, string];
  /** Video, Games, Books, Music, anything else. */
  domains: readonly [string, string, string, string, string];
}

const LIGHT: Palette = {
  bg: '#fffefe',
  border: '#d8dee4',
  title: '#1f5fbf',
  text: '#24292f',
  muted: '#57606a',
  levels: ['#eaeef2', '#b7d7f5', '#6fa8e6', '#3478c8', '#174b8f'],
  domains: ['#3b73d9', '#c8553d', '#2e8b63', '#a77c00', '#6e7781'],
};

const DARK: Palette = {
  bg: '#0d1117',
  border: '#30363d',
  title: '#79b8ff',
  text: '#e6edf3',
  muted: '#9da7b3',
  levels: ['#1c2128', '#1d3b63', '#2a5ea3', '#4a8ee0', '#8cc2ff'],
  domains: ['#6ea2ff', '#f0876f', '#4fc795', '#e0b443', '#9da7b3'],
};

function rules(palette: Palette): string {
  const { bg, border, title, text, muted, levels, domains } = palette;
  return [
    `.bg{fill:${bg};stroke:${border}}`,
    `.t{fill:${title}}`,
    `.x{fill:${text}}`,
    `.m{fill:${muted}}`,
    ...levels.map((colour, level) => `.l${level}{fill:${colour}}`),
    ...domains.map((colour, index) => `.d${index}{fill:${colour}}`),
  ].join('');
}

/** The card's stylesheet: one palette, or (auto) the light one with the dark one for a viewer who prefers it. */
function style(theme: Theme): string {
  // On the root, inherited: a text's own font-size attribute (a presentation attribute) wins over it, as it would not over a rule on text.
  const fonts = `svg{font-family:${FONTS};font-size:13px}.b{font-weight:700}`;
  if (theme === 'auto') return `${fonts}${rules(LIGHT)}@media (prefers-color-scheme:dark){${rules(DARK)}}`;
  return `${fonts}${rules(theme === 'dark' ? DARK : LIGHT)}`;
}

/** A text for XML: escaped, and without the characters XML 1.0 cannot hold (control characters, lone surrogates). */
export function xmlText(text: string): string {
  return text
    .replace(/[\0-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Numbers as the cards write them, the same on every machine: 1,234 and 7.8. */
export const count = (value: number): string => value.toLocaleString('en-US');
export const decimal = (value: number): string => value.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export interface Label extends Partial<TextStyle> {
  x: number;
  y: number;
  text: string;
  /** The px it may take from x: to the right, to the left for `anchor: 'end'`, centred on x for 'middle'. */
  room: number;
  anchor?: 'start' | 'end' | 'middle';
  /** A class of the palette: t (title), x (text, the default) or m (muted). */
  tone?: 't' | 'x' | 'm';
}

/**
 * A text that never passes its room: cut with "…" to what ./measure.ts says fits. `data-room` says the room, so that
 * a test can check in a browser that the drawn text stays in it. Nothing at all when not even "…" fits.
 */
export function label({ x, y, text, room, anchor = 'start', tone = 'x', size = 13, bold }: Label): string {
  const fitted = fitText(text, room, { size, bold });
  if (fitted === '') return '';
  const classes = bold ? `${tone} b` : tone;
  const anchored = anchor === 'start' ? '' : ` text-anchor="${anchor}"`;
  const sized = size === 13 ? '' : ` font-size="${size}"`;
  return `<text x="${x}" y="${y}" class="${classes}"${anchored}${sized} data-room="${room}">${xmlText(fitted)}</text>`;
}

export interface Frame {
  kind: string;
  theme: Theme;
  height: number;
  title: string;
  desc: string;
  body: string[];
}

/** The whole SVG document. */
export function frame({ kind, theme, height, title, desc, body }: Frame): string {
  const id = `lk-card-${kind}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${height}" viewBox="0 0 ${CARD_WIDTH} ${height}" role="img" aria-labelledby="${id}-title ${id}-desc">`,
    `<title id="${id}-title">${xmlText(title)}</title>`,
    `<desc id="${id}-desc">${xmlText(desc)}</desc>`,
    `<style>${style(theme)}</style>`,
    `<rect class="bg" x="0.5" y="0.5" rx="6" width="${CARD_WIDTH - 1}" height="${height - 1}"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
