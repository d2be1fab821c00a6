import { heatmapCardData, nowCardData, statsCardData, yearCardData } from '../readings/cards.js';
import type { ReadingHost } from '../readings/host.js';
import { heatmapCard } from './heatmap.js';
import { nowCard } from './now.js';
import { statsCard } from './stats.js';
import type { Theme } from './svg.js';
import { yearCard } from './year.js';

/**
 * lk card: one SVG image from the mirror, for a README or a site (lk card, lk serve's /card/KIND.svg, lk publish's
 * cards/KIND.svg). Each is a public reading (src/readings/cards.ts): made from the public projection, the same bytes
 * for the same mirror.
 */

export const CARD_KINDS = ['stats', 'now', 'heatmap', 'year'] as const;
export type CardKind = (typeof CARD_KINDS)[number];

export { THEMES, type Theme } from './svg.js';

const DRAWN: Record<CardKind, (host: ReadingHost, theme: Theme) => Promise<string>> = {
  stats: async (host, theme) => statsCard(await statsCardData(host), theme),
  now: async (host, theme) => nowCard(await nowCardData(host), theme),
  heatmap: async (host, theme) => heatmapCard(await heatmapCardData(host), theme),
  year: async (host, theme) => yearCard(await yearCardData(host), theme),
};

/** The card of this kind and theme, as SVG text; `host` must be public (its audience 'public'). */
export function cardSvg(host: ReadingHost, kind: CardKind, theme: Theme): Promise<string> {
  return DRAWN[kind](host, theme);
}

export const isCardKind = (word: string): word is CardKind => (CARD_KINDS as readonly string[]).includes(word);
