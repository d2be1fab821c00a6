import type { Colors } from './colors.js';

export type Phase = 'PLANNED' | 'IN_PROGRESS' | 'DONE' | 'DROPPED';

/** SPEC.md §3: every domain status and the phase it maps to; a phase maps to itself (PLANNED and DROPPED are both). */
const PHASE_OF: Record<string, Phase> = {
  PLANNED: 'PLANNED',
  BACKLOG: 'PLANNED',
  TO_READ: 'PLANNED',
  TO_LISTEN: 'PLANNED',
  IN_PROGRESS: 'IN_PROGRESS',
  WATCHING: 'IN_PROGRESS',
  PLAYING: 'IN_PROGRESS',
  READING: 'IN_PROGRESS',
  DONE: 'DONE',
  COMPLETED: 'DONE',
  UP_TO_DATE: 'DONE',
  READ: 'DONE',
  LISTENED: 'DONE',
  DROPPED: 'DROPPED',
};

/** The phase of a phase or of a domain status (WATCHING → IN_PROGRESS); undefined for anything else. */
export function phaseOf(value: unknown): Phase | undefined {
  return typeof value === 'string' && Object.hasOwn(PHASE_OF, value) ? PHASE_OF[value] : undefined;
}

/**
 * One colour per phase, everywhere a status or phase is shown (tables, a single entry, stats): `phase` may be a phase
 * or a status, which is coloured as the phase it maps to. Anything else is left as it is.
 */
export function paintPhase(text: string, phase: unknown, colors: Colors): string {
  switch (phaseOf(phase)) {
    case 'PLANNED':
      return colors.blue(text);
    case 'IN_PROGRESS':
      return colors.yellow(text);
    case 'DONE':
      return colors.green(text);
    case 'DROPPED':
      return colors.red(text);
    default:
      return text;
  }
}
