/**
 * The vocabulary of docs/api.md (Statuses and phases), once for all of lk: the four domains, the four phases, each domain's statuses and the
 * phase each maps to, and the names a person reads. A leaf: it imports nothing, so the client's layers and the
 * sandbox (which imports nothing else of the client) both read it (.dependency-cruiser.cjs).
 */
export const DOMAINS = ['MEDIA', 'GAMES', 'BOOKS', 'MUSIC'] as const;
export type Domain = (typeof DOMAINS)[number];

export const PHASES = ['PLANNED', 'IN_PROGRESS', 'DONE', 'DROPPED'] as const;
export type Phase = (typeof PHASES)[number];

/** Each domain's statuses and the phase each maps to (a caught-up airing show, UP_TO_DATE, is DONE). */
export const PHASE_OF_STATUS: Record<Domain, Readonly<Record<string, Phase>>> = {
  MEDIA: { PLANNED: 'PLANNED', WATCHING: 'IN_PROGRESS', COMPLETED: 'DONE', UP_TO_DATE: 'DONE', DROPPED: 'DROPPED' },
  GAMES: { BACKLOG: 'PLANNED', PLAYING: 'IN_PROGRESS', COMPLETED: 'DONE', DROPPED: 'DROPPED' },
  BOOKS: { TO_READ: 'PLANNED', READING: 'IN_PROGRESS', READ: 'DONE', DROPPED: 'DROPPED' },
  MUSIC: { TO_LISTEN: 'PLANNED', LISTENED: 'DONE' },
};

/** How a domain is named to a person (MEDIA holds films, series and anime). */
export const DOMAIN_LABELS: Record<Domain, string> = { MEDIA: 'Video', GAMES: 'Games', BOOKS: 'Books', MUSIC: 'Music' };

const ANY_PHASE: Readonly<Record<string, Phase>> = Object.assign(
  Object.fromEntries(PHASES.map((phase) => [phase, phase])),
  ...Object.values(PHASE_OF_STATUS),
) as Record<string, Phase>;

/** The phase of a status of any domain, or of a phase itself (WATCHING → IN_PROGRESS, DONE → DONE); else undefined. */
export function phaseOf(value: unknown): Phase | undefined {
  return typeof value === 'string' && Object.hasOwn(ANY_PHASE, value) ? ANY_PHASE[value] : undefined;
}

/** The domain a status belongs to when only one has it (READING → BOOKS; COMPLETED is two domains': undefined). */
export function domainOfStatus(status: string): Domain | undefined {
  const domains = DOMAINS.filter((domain) => Object.hasOwn(PHASE_OF_STATUS[domain], status));
  return domains.length === 1 ? domains[0] : undefined;
}
