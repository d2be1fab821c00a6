import type { Colors } from '../terminal/colors.js';

import { phaseOf } from '../../vocabulary.js';

/** The phase of a phase or of a domain status (src/vocabulary.ts), for what colours by phase. */
export { phaseOf };

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
