import type { HelpTopic } from '../topic.js';

export const ENVIRONMENT: HelpTopic = {
  name: 'environment',
  summary: 'every environment variable lk reads',
  section: 'ENVIRONMENT',
  blocks: [
    {
      items: [
        ['LK_API_KEY', 'a key that overrides the stored one (passed on to extensions, as you set it)'],
        ['LK_API_KEY_FILE', 'a file holding the key; overrides the stored one (never passed on to extensions)'],
        ['LK_BASE_URL', 'the instance, as --base-url (set for extensions to the one in use)'],
        ['LK_PROFILE', 'the profile, as --profile (set for extensions to the one in use)'],
        ['LK_KEY_SOCKET', 'set by lk for an extension or shell alias when lk read LK_API_KEY_FILE: where its lk commands ask for the key'],
        ['LK_CONFIG_DIR', 'the configuration folder: profiles, keys, defaults, aliases (else $XDG_CONFIG_HOME/lk, else ~/.config/lk)'],
        ['LK_CACHE_DIR', 'the cache folder: exports, rate-limit state, compiled code (else $XDG_CACHE_HOME/lk, else ~/.cache/lk)'],
        ['LK_DATA_DIR', 'the data folder: the mirror, <profile>.db (else $XDG_DATA_HOME/lk, else ~/.local/share/lk)'],
        ['LK_CA_FILE', 'a CA (PEM) to trust for the instance besides the usual ones, as --cacert'],
        ['LK_DEBUG', '1: one stderr line per request, and stack traces on errors (the key always masked)'],
        ['LK_PAGER', 'the pager for output taller than the terminal (before `lk config set pager` and PAGER; empty: none)'],
        ['LK_MAX_BODY', 'the largest response body read, as `lk config set max-body` (512MiB by default)'],
        ['LK_PAGING_CONCURRENCY', 'pages read at once by --all (1: one at a time)'],
        ['LK_TRANSPORT', 'undici: send direct requests through undici too (tests and benchmarks)'],
        ['LK_SEA_ROLE', 'internal: set by the single-file build for the process that reads the mirror'],
        ['LK_ALIAS_CHAIN', 'internal: set by lk for an extension or shell alias, the aliases and extensions it runs in (loops are stopped)'],
        ['LK_SCHEDULE_JOB', 'set by `lk schedule` in the jobs it installs: the job, whose exit status each run records for `lk schedule list`'],
        ['LK_TEST_GIT_STOP_AFTER', 'internal, tests only: stop `lk export --git` after a step'],
        ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'the proxy, as curl reads them (either case, lowercase wins)'],
        ['NODE_EXTRA_CA_CERTS', "Node's own: more CAs, read at start"],
        ['NO_COLOR, FORCE_COLOR', 'colour off, or on'],
        ['PAGER', 'the pager when neither LK_PAGER nor `lk config set pager` names one'],
        ['PATH', "where extensions (executables named lk-NAME) and a shell alias's sh are found: absolute folders only"],
      ],
    },
    {
      paragraph: 'Precedence, highest first: flag, environment, the profile (saved by `lk auth login`), `lk config` default, built-in default.',
    },
  ],
};
