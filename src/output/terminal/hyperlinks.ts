/**
 * OSC 8 hyperlinks (titles in a table that open their page on a click), decided from the environment the way gh and
 * supports-hyperlinks do: only on a terminal, only with colour on (--no-color and NO_COLOR mean no escape sequences at
 * all), FORCE_HYPERLINK first, then the terminals known to support them. A terminal that does not would print the
 * sequence's URL as garbage, so unknown means no.
 */
export function supportsHyperlinks(env: NodeJS.ProcessEnv, stdoutIsTTY: boolean, colorEnabled: boolean): boolean {
  if (!stdoutIsTTY || !colorEnabled) return false;
  const forced = env.FORCE_HYPERLINK;
  if (forced !== undefined) return forced !== '0' && forced !== 'false' && forced !== '';
  if (env.TERM === 'dumb' || env.CI) return false;
  if (env.WT_SESSION || env.DOMTERM || env.KONSOLE_VERSION) return true;
  // VTE (GNOME Terminal, Tilix…) from 0.50, which reports itself as 5000.
  if (env.VTE_VERSION) return Number.parseInt(env.VTE_VERSION, 10) >= 5000;
  const version = (env.TERM_PROGRAM_VERSION ?? '').split('.').map((part) => Number.parseInt(part, 10) || 0);
  switch (env.TERM_PROGRAM) {
    case 'iTerm.app':
      return version[0]! > 3 || (version[0] === 3 && version[1]! >= 1);
    case 'WezTerm':
    case 'vscode':
    case 'ghostty':
    case 'Tabby':
      return true;
    default:
      break;
  }
  return ['xterm-kitty', 'xterm-ghostty', 'alacritty', 'foot', 'wezterm'].includes(env.TERM ?? '');
}

/** A URL that can go inside the escape sequence: http(s), no control characters, no spaces. */
export function linkableUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^https?:\/\/[^\s\u0000-\u001f\u007f-\u009f]+$/i.test(value)) return undefined;
  return value;
}

/** `text` linked to `url`; the wrapper takes no room on the screen (width measuring skips it). */
export function hyperlink(text: string, url: string): string {
  return `\u001b]8;;${url}\u001b\\${text}\u001b]8;;\u001b\\`;
}
