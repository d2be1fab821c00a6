import type { Colors } from 'picocolors/types.js';

/** One colour per phase, everywhere a status or phase is shown. */
export function paintPhase(text: string, phase: unknown, colors: Colors): string {
  switch (phase) {
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
