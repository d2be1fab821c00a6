/**
 * The flags lk's tests and scripts/screenshots.mjs start Debian's chromium with: headless, no sandbox (root), and
 * offline. Chromium's own services look up update.googleapis.com and accounts.google.com even with background
 * networking, component updates and sync turned off; every host name but 127.0.0.1 resolves to nothing here (no DNS
 * query leaves the machine), and the pages under test are files and 127.0.0.1 (which the rule must exclude: chromium
 * applies it to address literals too, and after a failed lookup it probes google.com at 8.8.8.8 for its error page).
 *
 * @type {string[]}
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];
