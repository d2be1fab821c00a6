/**
 * How wide a text is drawn, without a font to ask: a width per character class, in em, at least what the font stack
 * of ./svg.ts draws it with. DejaVu Sans (Linux's usual sans-serif, and the fallback of the stack) is among the widest
 * sans faces: every width below is DejaVu Sans's widest member of the class, rounded up, so that Segoe UI, Helvetica,
 * Ubuntu or Arial draw the text narrower still. Bold is DejaVu Sans Bold's, about a tenth wider. CJK ideographs and
 * kana are a full em in every CJK face; an emoji (one grapheme, however many code points: flags, skin tones, ZWJ
 * families) is drawn by a colour font about 1.2 em wide, counted as 1.3.
 * Text that would pass its room is cut at a grapheme and ends with "…" (fitText).
 */

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
/** Marks drawn on the character before them, joiners, variation selectors: no width of their own. */
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
/** East Asian wide and fullwidth: Hangul, CJK ideographs and punctuation, kana, fullwidth forms. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;
/** DejaVu Sans: i, l, j, t, f, r and punctuation at 0.28–0.41 em (0.49 in bold). */
const NARROW = /[ !'(),\-./:;I[\\\]`fijlrt{|}]/;
/** DejaVu Sans: m, w, M, W, @, % at 0.82–1.0 em. */
const BROAD = /[%@MWmw]/;
/** The rest of Basic Latin's capitals and symbols: at most 0.84 em (DejaVu Sans's O, Q, G, &, #). */
const CAPITAL = /[A-Z#&+<=>?^~"$*_]/;
/** Lowercase letters and digits: at most 0.64 em (DejaVu Sans's b, d, g, h, n, p, q, u and its digits). */
const SMALL = /[a-z0-9]/;

const EM = { narrow: 0.45, small: 0.66, capital: 0.86, broad: 1.02, wide: 1.0, emoji: 1.3, other: 1.0 } as const;
const BOLD = 1.12;

/** A grapheme's width in em (regular weight). */
function graphemeEm(grapheme: string): number {
  if (EMOJI.test(grapheme)) return EM.emoji;
  let em = 0;
  for (const char of grapheme) {
    if (ZERO_WIDTH.test(char)) continue;
    if (WIDE.test(char)) em += EM.wide;
    else if (NARROW.test(char)) em += EM.narrow;
    else if (SMALL.test(char)) em += EM.small;
    else if (BROAD.test(char)) em += EM.broad;
    else if (CAPITAL.test(char)) em += EM.capital;
    // Accented Latin, Greek, Cyrillic, symbols: as wide as the widest capital or more.
    else em += EM.other;
  }
  return em;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (text: string) => Array.from(segmenter.segment(text), ({ segment }) => segment);

export interface TextStyle {
  /** px */
  size: number;
  bold?: boolean;
}

/** The width (px) a text takes at this size and weight, at least what the font stack draws. */
export function textWidth(text: string, style: TextStyle): number {
  const em = graphemes(text).reduce((sum, grapheme) => sum + graphemeEm(grapheme), 0);
  return em * style.size * (style.bold ? BOLD : 1);
}

const ELLIPSIS = '…';

/** The text as it fits in `room` px: whole, or cut at a grapheme with "…"; '' when not even "…" fits. */
export function fitText(text: string, room: number, style: TextStyle): string {
  if (textWidth(text, style) <= room) return text;
  const scale = style.size * (style.bold ? BOLD : 1);
  let left = room - graphemeEm(ELLIPSIS) * scale;
  if (left < 0) return '';
  let kept = '';
  for (const grapheme of graphemes(text)) {
    const width = graphemeEm(grapheme) * scale;
    if (width > left) break;
    kept += grapheme;
    left -= width;
  }
  return `${kept.trimEnd()}${ELLIPSIS}`;
}
