# PowerShell completion for lk: generated from lk's command tree by `lk completion powershell` (npm run completions); do not edit.
# Install: lk completion powershell >> $PROFILE    (or, for this session: lk completion powershell | Out-String | Invoke-Expression)

Register-ArgumentCompleter -Native -CommandName 'lk' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    # Global flags, accepted after any command: each is @{ N = names; D = description; V = its value, if it takes one }.
    $globals = @(
        @{ N = @('-V', '--version'); D = 'print the version'; V = $null }
        @{ N = @('--profile'); D = 'stored profile (account + instance)'; V = @{ K = 'profiles'; Name = 'name' } }
        @{ N = @('--base-url'); D = 'the address in front of /v1'; V = @{ K = 'free'; Name = 'url' } }
        @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('table', 'json', 'ndjson', 'csv', 'tsv') } }
        @{ N = @('--json'); D = 'shorthand for --format json'; V = $null }
        @{ N = @('--ndjson'); D = 'shorthand for --format ndjson'; V = $null }
        @{ N = @('--csv'); D = 'shorthand for --format csv'; V = $null }
        @{ N = @('--tsv'); D = 'shorthand for --format tsv'; V = $null }
        @{ N = @('--fields'); D = 'comma-separated dot paths to output, e.g. id,work.title,status; "help" lists them'; V = @{ K = 'free'; Name = 'list' } }
        @{ N = @('--jq'); D = 'filter the JSON output with jq; strings print raw, one value a line'; V = @{ K = 'free'; Name = 'expr' } }
        @{ N = @('--no-header'); D = 'no header row in table, csv and tsv'; V = $null }
        @{ N = @('--lang'); D = 'language of film and series titles'; V = @{ K = 'words'; Name = 'lang'; W = @('en', 'fr', 'it') } }
        @{ N = @('--no-color'); D = 'no colour (also NO_COLOR)'; V = $null }
        @{ N = @('--no-pager'); D = 'never page long output (pager: LK_PAGER, config pager, PAGER, else less -FRX)'; V = $null }
        @{ N = @('--csv-safe'); D = 'prefix '' to csv cells a spreadsheet would run as a formula'; V = $null }
        @{ N = @('-q', '--quiet'); D = 'nothing on stderr but errors'; V = $null }
        @{ N = @('-v', '--verbose'); D = 'one stderr line per request (also LK_DEBUG=1); the key redacted'; V = $null }
        @{ N = @('--cache'); D = 'answer reads from a local response cache younger than this, e.g. 30s, 5m, 1h (for prompts and status bars)'; V = @{ K = 'free'; Name = 'duration' } }
        @{ N = @('--no-wait'); D = 'on a rate limit, fail at once (exit 5) instead of waiting'; V = $null }
        @{ N = @('--max-wait'); D = 'longest single wait for the rate limit (default 300)'; V = @{ K = 'free'; Name = 'seconds' } }
        @{ N = @('--timeout'); D = 'per-request timeout (default 30)'; V = @{ K = 'free'; Name = 'seconds' } }
        @{ N = @('--cacert'); D = 'trust this CA (PEM) for the instance, besides the usual ones (also LK_CA_FILE)'; V = @{ K = 'files'; Name = 'file' } }
        @{ N = @('-h', '--help'); D = 'show help'; V = $null }
    )
    # Each command path ('' for the program): its subcommands, its own flags, its operands in order.
    $nodes = @{
        '' = @{
            Subs = @(@{ N = @('auth'); D = 'log in to an instance, check or forget the stored key' }, @{ N = @('whoami'); D = 'show the account, the key in use and its rate limit' }, @{ N = @('library'); D = 'your library: entries with their work, status and progress' }, @{ N = @('history'); D = 'what you watched, played, read and listened to, newest first' }, @{ N = @('lists'); D = 'your lists (and lists shared with you for editing), and what is on them' }, @{ N = @('calendar'); D = 'upcoming episodes of the shows you follow (up to 90 days, at most 60), in your local time' }, @{ N = @('next'); D = 'what to take up next: your entries in progress, most recently active first (or --random, one planned)' }, @{ N = @('status'); D = 'what is going on, in one screen: in progress, activity, airing this week, notifications, the mirror' }, @{ N = @('serve'); D = 'serve the mirror read-only over HTTP: calendar, feed, status, next and reports for apps and dashboards' }, @{ N = @('stats'); D = 'your stats summary, a section per group of figures' }, @{ N = @('reviews'); D = 'the reviews you wrote' }, @{ N = @('profile'); D = 'your public profile, and the achievements you unlocked' }, @{ N = @('notifications'); D = 'your notifications, newest first' }, @{ N = @('notify'); D = 'tell your phone (ntfy, e-mail, Discord, any Apprise URL) of episodes airing and new notifications, once' }, @{ N = @('export'); D = 'the full data export (cached: the server allows one per hour)' }, @{ N = @('diff'); D = 'what changed between two exports (or an export and the mirror): everything an export holds' }, @{ N = @('convert'); D = 'write files other services import: Letterboxd, Goodreads/StoryGraph, Yamtrack, MyAnimeList' }, @{ N = @('sync'); D = 'create or update the local SQLite mirror of your account (then lk search, lk sql, --offline)' }, @{ N = @('search'); D = 'full-text search of the mirror: titles, notes and reviews (lk sync first)' }, @{ N = @('sql'); D = 'run a read-only SQL query on the mirror, output in any format; --schema prints the schema' }, @{ N = @('feed'); D = 'your recent activity from the mirror as an Atom 1.0 feed (or JSON Feed 1.1), for a site or a feed reader' }, @{ N = @('report'); D = 'a year in review from the mirror: one HTML file to open, print and keep (or its figures with --json)' }, @{ N = @('publish'); D = 'write a static site of your library into DIR, from the mirror: only what anyone may see' }, @{ N = @('card'); D = 'an SVG card of your library from the mirror (stats, now, heatmap, year), for a README or a site' }, @{ N = @('mcp'); D = 'serve your library to an AI assistant: a read-only MCP server on stdio, answering from the mirror' }, @{ N = @('open'); D = 'open an entry''s page in the web app in your browser (BROWSER), or print its URL' }, @{ N = @('api'); D = 'raw GET of any path under /v1; prints the JSON as the server sent it' }, @{ N = @('schedule'); D = 'run lk sync, a backup or lk notify unattended: a systemd user timer, else a crontab line' }, @{ N = @('alias'); D = 'shorter words for the commands you type often, as gh has them (kept per machine, in the config file)' }, @{ N = @('extension'); D = 'commands of your own: an executable lk-NAME on PATH runs as `lk NAME ARGS…`' }, @{ N = @('config'); D = 'stored defaults: format, lang, color, base-url, max-wait, timeout, max-body, pager, ca-file, notify, csv-safe (flags and environment still win)' }, @{ N = @('completion'); D = 'print the completion script for bash, zsh, fish or PowerShell (the same as completions/ in the package)' }, @{ N = @('doctor'); D = 'check Node, folders, key, instance, TLS, proxy, clock, rate limit, export hour and mirror; each with the fix' }, @{ N = @('sandbox'); D = 'run the bundled reference API with demo data on loopback, until interrupted' })
            Flags = @(
            )
            Operands = @()
        }
        'auth' = @{
            Subs = @(@{ N = @('login'); D = 'check a key against the instance (GET /v1/me) and store it in the profile' }, @{ N = @('status'); D = 'which instance and key are in use, where they come from, and what the key may do' }, @{ N = @('switch'); D = 'make a stored profile the default (used when neither --profile nor LK_PROFILE names one)' }, @{ N = @('token'); D = 'print the key for scripts; refused on a terminal unless --show' }, @{ N = @('logout'); D = 'forget the profile''s stored key' })
            Flags = @(
            )
            Operands = @()
        }
        'auth login' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--with-key'); D = 'read the key from standard input instead of asking'; V = $null }
                @{ N = @('--allow-http'); D = 'allow plain http to this non-loopback instance (a self-hosted one at home)'; V = $null }
                @{ N = @('--insecure-storage'); D = 'keep the key in the config file (mode 0600) even where a system keyring answers'; V = $null }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @()
        }
        'auth status' = @{
            Subs = @()
            Flags = @(
            )
            Operands = @()
        }
        'auth switch' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'dynamic'; Name = 'name'; More = $false; A = @('completion', '--profiles'); With = $false })
        }
        'auth token' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--show'); D = 'print it even on a terminal (it stays on the screen and in the scrollback)'; V = $null }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @()
        }
        'auth logout' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @()
        }
        'whoami' = @{
            Subs = @()
            Flags = @(
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
            )
            Operands = @()
        }
        'library' = @{
            Subs = @(@{ N = @('list'); D = 'list library entries, newest first' }, @{ N = @('show'); D = 'one library entry by its id' }, @{ N = @('history'); D = 'the history of one entry, undated events last' })
            Flags = @(
                @{ N = @('--phase'); D = 'only entries in this phase'; V = @{ K = 'words'; Name = 'phase'; W = @('PLANNED', 'IN_PROGRESS', 'DONE', 'DROPPED') } }
                @{ N = @('--domain'); D = 'only this domain'; V = @{ K = 'words'; Name = 'domain'; W = @('MEDIA', 'GAMES', 'BOOKS', 'MUSIC') } }
                @{ N = @('--sort'); D = 'sort by'; V = @{ K = 'words'; Name = 'key'; W = @('added', 'title', 'rating', 'finished') } }
                @{ N = @('--order'); D = 'desc keeps the natural order (newest, best, A to Z); asc reverses'; V = @{ K = 'words'; Name = 'order'; W = @('desc', 'asc') } }
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--page'); D = 'page to show, from 1'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--limit'); D = 'items per page, 1 to 100 (default 20; 100 with --all)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every item, following pages to the end (streams as pages arrive)'; V = $null }
                @{ N = @('--max'); D = 'stop after N items'; V = @{ K = 'free'; Name = 'n' } }
            )
            Operands = @()
        }
        'library list' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--phase'); D = 'only entries in this phase'; V = @{ K = 'words'; Name = 'phase'; W = @('PLANNED', 'IN_PROGRESS', 'DONE', 'DROPPED') } }
                @{ N = @('--domain'); D = 'only this domain'; V = @{ K = 'words'; Name = 'domain'; W = @('MEDIA', 'GAMES', 'BOOKS', 'MUSIC') } }
                @{ N = @('--sort'); D = 'sort by'; V = @{ K = 'words'; Name = 'key'; W = @('added', 'title', 'rating', 'finished') } }
                @{ N = @('--order'); D = 'desc keeps the natural order (newest, best, A to Z); asc reverses'; V = @{ K = 'words'; Name = 'order'; W = @('desc', 'asc') } }
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--page'); D = 'page to show, from 1'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--limit'); D = 'items per page, 1 to 100 (default 20; 100 with --all)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every item, following pages to the end (streams as pages arrive)'; V = $null }
                @{ N = @('--max'); D = 'stop after N items'; V = @{ K = 'free'; Name = 'n' } }
            )
            Operands = @()
        }
        'library show' = @{
            Subs = @()
            Flags = @(
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
            )
            Operands = @(@{ K = 'dynamic'; Name = 'id'; More = $false; A = @('completion', '--ids', 'entries'); With = $false })
        }
        'library history' = @{
            Subs = @()
            Flags = @(
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--page'); D = 'page to show, from 1'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--limit'); D = 'items per page, 1 to 100 (default 20; 100 with --all)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every item, following pages to the end (streams as pages arrive)'; V = $null }
                @{ N = @('--max'); D = 'stop after N items'; V = @{ K = 'free'; Name = 'n' } }
            )
            Operands = @(@{ K = 'dynamic'; Name = 'id'; More = $false; A = @('completion', '--ids', 'entries'); With = $false })
        }
        'history' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--from'); D = 'from this day or moment: YYYY-MM-DD, ISO 8601 (local time without a zone), 7d, 2w, 12h, today, yesterday'; V = @{ K = 'free'; Name = 'date' } }
                @{ N = @('--to'); D = 'up to this day (inclusive) or moment, in the same forms'; V = @{ K = 'free'; Name = 'date' } }
                @{ N = @('--domain'); D = 'only this domain'; V = @{ K = 'words'; Name = 'domain'; W = @('MEDIA', 'GAMES', 'BOOKS', 'MUSIC') } }
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--page'); D = 'page to show, from 1'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--limit'); D = 'items per page, 1 to 100 (default 20; 100 with --all)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every item, following pages to the end (streams as pages arrive)'; V = $null }
                @{ N = @('--max'); D = 'stop after N items'; V = @{ K = 'free'; Name = 'n' } }
            )
            Operands = @()
        }
        'lists' = @{
            Subs = @(@{ N = @('list'); D = 'your lists' }, @{ N = @('show'); D = 'the works, seasons and episodes on one list (--json prints the list itself)' })
            Flags = @(
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--page'); D = 'page to show, from 1'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--limit'); D = 'items per page, 1 to 100 (default 20; 100 with --all)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every item, following pages to the end (streams as pages arrive)'; V = $null }
                @{ N = @('--max'); D = 'stop after N items'; V = @{ K = 'free'; Name = 'n' } }
            )
            Operands = @()
        }
        'lists list' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--page'); D = 'page to show, from 1'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--limit'); D = 'items per page, 1 to 100 (default 20; 100 with --all)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every item, following pages to the end (streams as pages arrive)'; V = $null }
                @{ N = @('--max'); D = 'stop after N items'; V = @{ K = 'free'; Name = 'n' } }
            )
            Operands = @()
        }
        'lists show' = @{
            Subs = @()
            Flags = @(
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
            )
            Operands = @(@{ K = 'dynamic'; Name = 'id'; More = $false; A = @('completion', '--ids', 'lists'); With = $false })
        }
        'calendar' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--domain'); D = 'only this domain'; V = @{ K = 'words'; Name = 'domain'; W = @('MEDIA', 'GAMES', 'BOOKS', 'MUSIC') } }
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output (or the --format ics feed) to this file, whole or not at all'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--spoiler-free'); D = 'with --format ics: leave episode titles out of the feed'; V = $null }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('table', 'json', 'ndjson', 'csv', 'tsv', 'ics') } }
            )
            Operands = @()
        }
        'next' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--domain'); D = 'only this domain'; V = @{ K = 'words'; Name = 'domain'; W = @('MEDIA', 'GAMES', 'BOOKS', 'MUSIC') } }
                @{ N = @('--limit'); D = 'at most N entries, 1 to 100 (default 20)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every entry in progress'; V = $null }
                @{ N = @('--random'); D = 'one PLANNED entry picked at random instead'; V = $null }
                @{ N = @('--seed'); D = 'with --random: the same pick for the same N and library'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
            )
            Operands = @()
        }
        'status' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--json-schema'); D = 'print the JSON Schema of the --json object (schemas/status.schema.json) and exit'; V = $null }
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('table', 'json') } }
            )
            Operands = @()
        }
        'serve' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--host'); D = 'the address to listen on (default 127.0.0.1; any other needs --token-file)'; V = @{ K = 'free'; Name = 'host' } }
                @{ N = @('--port'); D = 'the port (default 8787; 0 picks a free one)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--sync-every'); D = 'run lk sync in the background this often, e.g. 15m, 1h (needs the key)'; V = @{ K = 'free'; Name = 'duration' } }
                @{ N = @('--token-file'); D = 'require the token in this file as ?token= or Authorization: Bearer'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--mcp'); D = 'also serve lk mcp''s MCP server at POST /mcp (Streamable HTTP), for assistants that reach lk over the network'; V = $null }
                @{ N = @('--replace'); D = 'with --sync-every: replace a mirror of another account with this key''s (else refused, exit 1)'; V = $null }
                @{ N = @('--notify'); D = 'with --sync-every: run lk notify after each sync (to --to, else the config list notify)'; V = $null }
                @{ N = @('--to'); D = 'send here (repeatable); else the config list notify'; V = @{ K = 'free'; Name = 'url' } }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @()
        }
        'stats' = @{
            Subs = @()
            Flags = @(
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--domain'); D = 'only this domain'; V = @{ K = 'words'; Name = 'domain'; W = @('MEDIA', 'GAMES', 'BOOKS', 'MUSIC') } }
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
            )
            Operands = @()
        }
        'reviews' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--domain'); D = 'only this domain'; V = @{ K = 'words'; Name = 'domain'; W = @('MEDIA', 'GAMES', 'BOOKS', 'MUSIC') } }
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--page'); D = 'page to show, from 1'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--limit'); D = 'items per page, 1 to 100 (default 20; 100 with --all)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every item, following pages to the end (streams as pages arrive)'; V = $null }
                @{ N = @('--max'); D = 'stop after N items'; V = @{ K = 'free'; Name = 'n' } }
            )
            Operands = @()
        }
        'profile' = @{
            Subs = @(@{ N = @('achievements'); D = 'your achievements, unlocked or in progress' })
            Flags = @(
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
            )
            Operands = @()
        }
        'profile achievements' = @{
            Subs = @()
            Flags = @(
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--page'); D = 'page to show, from 1'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--limit'); D = 'items per page, 1 to 100 (default 20; 100 with --all)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every item, following pages to the end (streams as pages arrive)'; V = $null }
                @{ N = @('--max'); D = 'stop after N items'; V = @{ K = 'free'; Name = 'n' } }
            )
            Operands = @()
        }
        'notifications' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--offline'); D = 'answer from the local mirror (lk sync): no key, no request'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--page'); D = 'page to show, from 1'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--limit'); D = 'items per page, 1 to 100 (default 20; 100 with --all)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every item, following pages to the end (streams as pages arrive)'; V = $null }
                @{ N = @('--max'); D = 'stop after N items'; V = @{ K = 'free'; Name = 'n' } }
            )
            Operands = @()
        }
        'notify' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--to'); D = 'send here (repeatable); else the config list notify'; V = @{ K = 'free'; Name = 'url' } }
                @{ N = @('--sync'); D = 'run lk sync first (needs the key), then tell what is new'; V = $null }
                @{ N = @('--dry-run'); D = 'show what would be sent, and to which targets; send and record nothing'; V = $null }
                @{ N = @('--mark-sent'); D = 'record what is due as sent, without sending it (to start quiet)'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('table', 'json') } }
            )
            Operands = @()
        }
        'export' = @{
            Subs = @()
            Flags = @(
                @{ N = @('-o', '--output'); D = 'write the export to this file (whole or not at all)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--output-dir'); D = 'write lk-export-<account>-<UTC time fetched>.json (or a CSV folder) here'; V = @{ K = 'directories'; Name = 'dir' } }
                @{ N = @('--keep'); D = 'with --output-dir: then delete all but the N newest exports of this account and kind there'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--gzip'); D = 'compress what is written (.json.gz with --output-dir)'; V = $null }
                @{ N = @('--max-age'); D = 'oldest cached export accepted, e.g. 30m, 6h, 2d (default 1h)'; V = @{ K = 'free'; Name = 'duration' } }
                @{ N = @('--fresh'); D = 'insist on a new export, asked of the server even within the hour: exit 5 when it refuses'; V = $null }
                @{ N = @('--git'); D = 'keep the export as a git repository there: one JSON file per collection, a commit when anything changed'; V = @{ K = 'directories'; Name = 'dir' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('json', 'csv') } }
            )
            Operands = @()
        }
        'diff' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--exit-code'); D = 'exit 1 when anything differs, 0 when nothing does (as git diff --exit-code)'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('table', 'json') } }
            )
            Operands = @(@{ K = 'free'; Name = 'old'; More = $false }, @{ K = 'free'; Name = 'new'; More = $false })
        }
        'convert' = @{
            Subs = @()
            Flags = @(
                @{ N = @('-o', '--output'); D = 'write this file (whole or not at all); Letterboxd over 1 MB: FILE-1.csv, FILE-2.csv, …'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--since'); D = 'only activity since then: a local date (2026-01-31), a moment (ISO 8601), 7d, 2w, 12h, today'; V = @{ K = 'free'; Name = 'date' } }
                @{ N = @('--domain'); D = 'only this domain (yamtrack holds all four)'; V = @{ K = 'words'; Name = 'domain'; W = @('MEDIA', 'GAMES', 'BOOKS', 'MUSIC') } }
                @{ N = @('--strict'); D = 'exit 1 when any row was skipped, set aside, guessed or matched by title'; V = $null }
                @{ N = @('--rating-scale'); D = 'the instance''s rating scale (default: found from the ratings)'; V = @{ K = 'words'; Name = 'n'; W = @('5', '10', '100') } }
                @{ N = @('--db'); D = 'read this lk sync mirror (default: the profile''s mirror when it exists, else the export)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'words'; Name = 'target'; More = $false; W = @('letterboxd', 'goodreads', 'yamtrack', 'mal') })
        }
        'sync' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--full'); D = 'ignore a cached export and read every page, never only what changed: the server as it is now, every row compared'; V = $null }
                @{ N = @('--replace'); D = 'replace a mirror of another account with this key''s account (else refused, exit 1)'; V = $null }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @()
        }
        'search' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--domain'); D = 'only this domain'; V = @{ K = 'words'; Name = 'domain'; W = @('MEDIA', 'GAMES', 'BOOKS', 'MUSIC') } }
                @{ N = @('--phase'); D = 'only entries in this phase'; V = @{ K = 'words'; Name = 'phase'; W = @('PLANNED', 'IN_PROGRESS', 'DONE', 'DROPPED') } }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('-o', '--output'); D = 'write the output to this file, whole or not at all (0600 when new)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--page'); D = 'page to show, from 1'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--limit'); D = 'items per page, 1 to 100 (default 20; 100 with --all)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--all'); D = 'every item, following pages to the end (streams as pages arrive)'; V = $null }
                @{ N = @('--max'); D = 'stop after N items'; V = @{ K = 'free'; Name = 'n' } }
            )
            Operands = @(@{ K = 'free'; Name = 'text'; More = $false })
        }
        'sql' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--schema'); D = 'print the schema of the mirror (tables, indexes, full-text tables, views)'; V = $null }
            )
            Operands = @(@{ K = 'free'; Name = 'query'; More = $false })
        }
        'feed' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--limit'); D = 'entries in the feed, newest first, 1 to 1000 (default 50)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--domain'); D = 'only this domain'; V = @{ K = 'words'; Name = 'domain'; W = @('MEDIA', 'GAMES', 'BOOKS', 'MUSIC') } }
                @{ N = @('--since'); D = 'only activity since then: 7d, 2w, 12h, today, 2026-01-31'; V = @{ K = 'free'; Name = 'when' } }
                @{ N = @('--public'); D = 'leave out your notes, private reviews and the text of spoilers (see below)'; V = $null }
                @{ N = @('--sync'); D = 'run lk sync first (needs the key), then make the feed'; V = $null }
                @{ N = @('-o', '--output'); D = 'write the feed to this file, whole or not at all (left untouched when unchanged)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('atom', 'json') } }
            )
            Operands = @()
        }
        'report' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--year'); D = 'the year to review (default: the last complete year; this year so far in December)'; V = @{ K = 'free'; Name = 'yyyy' } }
                @{ N = @('--from'); D = 'first day of the period instead: 2025-03-01, 30d, 2w, yesterday'; V = @{ K = 'free'; Name = 'date' } }
                @{ N = @('--to'); D = 'last day of the period, included (2025-08-31, 7d, yesterday; default today)'; V = @{ K = 'free'; Name = 'date' } }
                @{ N = @('-o', '--output'); D = 'where the page goes (default lk-report-YYYY.html here), whole or not at all; - for stdout'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--open'); D = 'open the page in your browser once written (BROWSER, as lk open does)'; V = $null }
                @{ N = @('--sync'); D = 'bring the mirror up to date first (lk sync)'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('html', 'json') } }
            )
            Operands = @()
        }
        'publish' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--lists'); D = 'the lists published: public (default: those the API marks public), all, none, or ids (3,7)'; V = @{ K = 'free'; Name = 'which' } }
                @{ N = @('--title'); D = 'the site''s name (default: the account''s display name)'; V = @{ K = 'free'; Name = 'text' } }
                @{ N = @('--sync'); D = 'bring the mirror up to date first (lk sync)'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'free'; Name = 'dir'; More = $false })
        }
        'card' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--theme'); D = 'light (the default), dark, or auto: the viewer’’s colour scheme'; V = @{ K = 'words'; Name = 'theme'; W = @('light', 'dark', 'auto') } }
                @{ N = @('-o', '--output'); D = 'write the SVG to this file, whole or not at all (left untouched when unchanged)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--sync'); D = 'run lk sync first (needs the key), then draw the card'; V = $null }
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('svg') } }
            )
            Operands = @(@{ K = 'words'; Name = 'kind'; More = $false; W = @('stats', 'now', 'heatmap', 'year') })
        }
        'mcp' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--db'); D = 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--live'); D = 'let get_entry, calendar and the stats summary ask the API, within the rate limit (default: the mirror only, no request)'; V = $null }
                @{ N = @('--tools'); D = 'serve only these tools, comma-separated (of search, list_library, get_entry, history, stats, calendar, next_up, status, sql, recommend, list_lists, list_reviews, list_achievements, list_notifications)'; V = @{ K = 'free'; Name = 'names' } }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @()
        }
        'open' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--work'); D = 'the page of the entry''s work instead of the entry''s own'; V = $null }
                @{ N = @('--list'); D = 'the page of this list instead'; V = @{ K = 'free'; Name = 'id' } }
                @{ N = @('--profile-page'); D = 'your profile page instead'; V = $null }
                @{ N = @('-n', '--no-browser'); D = 'print the URL, do not open it'; V = $null }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'dynamic'; Name = 'id'; More = $false; A = @('completion', '--ids', 'entries'); With = $false })
        }
        'api' = @{
            Subs = @()
            Flags = @(
                @{ N = @('-F', '--field'); D = 'add a query parameter (repeatable)'; V = @{ K = 'free'; Name = 'key=value' } }
                @{ N = @('--paginate'); D = 'follow hasMore (limit=100 unless -F limit) and print one JSON array of every item'; V = $null }
                @{ N = @('--include'); D = 'print the status line and response headers to stderr'; V = $null }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('json') } }
            )
            Operands = @(@{ K = 'free'; Name = 'path'; More = $false })
        }
        'schedule' = @{
            Subs = @(@{ N = @('add'); D = 'install a job run unattended for this profile: a systemd user timer, else a crontab line' }, @{ N = @('list'); D = 'lk''s jobs, every profile''s: each with its schedule, next run and last result' }, @{ N = @('remove'); D = 'remove this profile''s job: exactly what lk schedule add installed (its units, or its crontab line)' })
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('table', 'json') } }
            )
            Operands = @()
        }
        'schedule add' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--every'); D = 'how often: 15m, 20m, 30m, 1h, 2h, 3h, 4h, 6h, 8h, 12h or 1d (default: sync 1h, backup 1d, notify 30m)'; V = @{ K = 'free'; Name = 'duration' } }
                @{ N = @('--dir'); D = 'backup''s git repository (lk export --git DIR), made absolute now'; V = @{ K = 'directories'; Name = 'dir' } }
                @{ N = @('--print'); D = 'show what would be installed (the units, or the crontab line); install nothing'; V = $null }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('table', 'json') } }
            )
            Operands = @(@{ K = 'words'; Name = 'job'; More = $false; W = @('sync', 'backup', 'notify') })
        }
        'schedule list' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('table', 'json') } }
            )
            Operands = @()
        }
        'schedule remove' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'words'; Name = 'job'; More = $false; W = @('sync', 'backup', 'notify') })
        }
        'alias' = @{
            Subs = @(@{ N = @('list'); D = 'list the aliases, one a line: NAME: EXPANSION (a shell alias starts with !)' }, @{ N = @('set'); D = 'make NAME stand for EXPANSION: `lk NAME ARGS…` runs `lk EXPANSION`, $1, $2… replaced, the rest appended' }, @{ N = @('delete'); D = 'forget an alias' })
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @()
        }
        'alias list' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @()
        }
        'alias set' = @{
            Subs = @()
            Flags = @(
                @{ N = @('-s', '--shell'); D = 'run the expansion through sh; the arguments are its "$1", "$2"…, "$@"'; V = $null }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'dynamic'; Name = 'name'; More = $false; A = @('completion', '--aliases'); With = $false }, @{ K = 'free'; Name = 'expansion'; More = $false })
        }
        'alias delete' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'dynamic'; Name = 'name'; More = $false; A = @('completion', '--aliases'); With = $false })
        }
        'extension' = @{
            Subs = @(@{ N = @('list'); D = 'list the extensions on PATH, one a line: NAME and the file that runs' })
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @()
        }
        'extension list' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @()
        }
        'config' = @{
            Subs = @(@{ N = @('list'); D = 'every setting with its value and where it comes from; profiles with masked keys' }, @{ N = @('get'); D = 'print the stored value of a setting (nothing, exit 0, when it is not set)' }, @{ N = @('set'); D = 'store a default, checked first (a wrong value is refused with the allowed ones)' }, @{ N = @('unset'); D = 'forget a stored default (the built-in one applies again)' })
            Flags = @(
            )
            Operands = @()
        }
        'config list' = @{
            Subs = @()
            Flags = @(
            )
            Operands = @()
        }
        'config get' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'words'; Name = 'setting'; More = $false; W = @('format', 'lang', 'color', 'base-url', 'max-wait', 'timeout', 'max-body', 'pager', 'ca-file', 'notify', 'csv-safe') })
        }
        'config set' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'words'; Name = 'setting'; More = $false; W = @('format', 'lang', 'color', 'base-url', 'max-wait', 'timeout', 'max-body', 'pager', 'ca-file', 'notify', 'csv-safe') }, @{ K = 'dynamic'; Name = 'value'; More = $false; A = @('completion', '--setting-values'); With = $true })
        }
        'config unset' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'words'; Name = 'setting'; More = $false; W = @('format', 'lang', 'color', 'base-url', 'max-wait', 'timeout', 'max-body', 'pager', 'ca-file', 'notify', 'csv-safe') })
        }
        'completion' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @() } }
            )
            Operands = @(@{ K = 'words'; Name = 'shell'; More = $false; W = @('bash', 'zsh', 'fish', 'powershell') })
        }
        'doctor' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--json'); D = 'the checks as one JSON object: {ok, checks: [{id, status, message, fix}]}'; V = $null }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('table', 'json') } }
            )
            Operands = @()
        }
        'sandbox' = @{
            Subs = @()
            Flags = @(
                @{ N = @('--port'); D = 'port to listen on (default: a free one)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--host'); D = 'address to bind (default 127.0.0.1; anything else exposes the demo data)'; V = @{ K = 'free'; Name = 'address' } }
                @{ N = @('--seed'); D = 'seed of the generated data (same seed, same data)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--entries'); D = 'library entries of the demo account (up to 100000)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--rate-limit'); D = 'requests per minute per account (0 lifts the limit)'; V = @{ K = 'free'; Name = 'n' } }
                @{ N = @('--export-interval'); D = 'seconds between two exports of an account (default 3600; within its hour lk reads its cache, lk export --fresh asks)'; V = @{ K = 'free'; Name = 'seconds' } }
                @{ N = @('--variant'); D = 'alt: play a second implementation (UUID ids, other field names)'; V = @{ K = 'words'; Name = 'name'; W = @('default', 'alt') } }
                @{ N = @('--tls-key'); D = 'serve https with this PEM private key (with --tls-cert)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--tls-cert'); D = 'serve https with this PEM certificate or chain (with --tls-key)'; V = @{ K = 'files'; Name = 'file' } }
                @{ N = @('--json'); D = 'print the base URL and the demo keys as one JSON object (for scripts and tests)'; V = $null }
                @{ N = @('--format'); D = 'output format: table, json, ndjson, csv, tsv'; V = @{ K = 'words'; Name = 'format'; W = @('lines', 'json') } }
            )
            Operands = @()
        }
    }
    # This machine's aliases and extensions, offered beside the commands: what these print.
    $local = @(@('completion', '--aliases'), @('completion', '--extensions'))

    $exe = $commandAst.CommandElements[0].Extent.Text
    # Quietly: a failing lk at Tab time offers nothing.
    function Ask([string[]] $arguments) { @(& $exe @arguments 2>$null | Where-Object { $_ -ne '' }) }
    function FlagsAt($node) {
        $own = @($node.Flags)
        $names = @($own | ForEach-Object { $_.N })
        $own + @($globals | Where-Object { -not (@($_.N) | Where-Object { $names -contains $_ }) })
    }
    function FindFlag($node, [string] $word) { FlagsAt $node | Where-Object { $_.N -contains $word } | Select-Object -First 1 }

    # The words before the one being completed.
    $words = @($commandAst.CommandElements | Where-Object { $_.Extent.EndOffset -lt $cursorPosition } | ForEach-Object { $_.Extent.Text })
    $path = ''
    $node = $nodes['']
    $operands = 0
    $ops = @()
    $pending = $null
    for ($i = 1; $i -lt $words.Count; $i++) {
        $word = $words[$i]
        if ($pending) { $pending = $null; continue }
        if ($word.StartsWith('-') -and $word -ne '-') {
            if (-not $word.Contains('=')) {
                $flag = FindFlag $node $word
                if ($flag -and $flag.V) { $pending = $flag }
            }
            continue
        }
        if ($operands -eq 0) {
            $child = @($node.Subs | Where-Object { $_.N -contains $word }) | Select-Object -First 1
            if ($child) {
                $path = if ($path) { "$path $($child.N[0])" } else { $child.N[0] }
                $node = $nodes[$path]
                continue
            }
        }
        $operands++
        $ops += $word
    }

    $current = $wordToComplete
    $prefix = ''
    $flag = $pending
    if (-not $flag -and $current.StartsWith('--') -and $current.Contains('=')) {
        $at = $current.IndexOf('=')
        $flag = FindFlag $node $current.Substring(0, $at)
        if (-not ($flag -and $flag.V)) { return }
        $prefix = $current.Substring(0, $at + 1)
        $current = $current.Substring($at + 1)
    }
    $offers = @()
    if ($flag) {
        switch ($flag.V.K) {
            'words' { $offers = @($flag.V.W | ForEach-Object { @{ T = $_; D = $flag.V.Name; R = 'ParameterValue' } }) }
            'profiles' { $offers = @(Ask @('completion', '--profiles') | ForEach-Object { @{ T = $_; D = 'stored profile'; R = 'ParameterValue' } }) }
            default { return }
        }
    } elseif ($current.StartsWith('-')) {
        $offers = @(FlagsAt $node | ForEach-Object { $flag = $_; $flag.N | ForEach-Object { @{ T = $_; D = $flag.D; R = 'ParameterName' } } })
    } elseif ($operands -eq 0 -and @($node.Subs).Count -gt 0) {
        $offers = @($node.Subs | ForEach-Object { @{ T = $_.N[0]; D = $_.D; R = 'Command' } })
        if ($path -eq '') {
            foreach ($source in $local) { $offers += @(Ask $source | ForEach-Object { @{ T = $_; D = $source[-1].TrimStart('-'); R = 'Command' } }) }
        }
    } else {
        $all = @($node.Operands)
        if ($all.Count -eq 0) { return }
        $operand = if ($operands -lt $all.Count) { $all[$operands] } elseif ($all[-1].More) { $all[-1] } else { $null }
        if (-not $operand) { return }
        switch ($operand.K) {
            'words' { $offers = @($operand.W | ForEach-Object { @{ T = $_; D = $operand.Name; R = 'ParameterValue' } }) }
            'dynamic' {
                $arguments = @($operand.A)
                if ($operand.With) { $arguments += $ops }
                $offers = @(Ask $arguments | ForEach-Object { @{ T = $_; D = $operand.Name; R = 'ParameterValue' } })
            }
            default { return }
        }
    }
    $offers | Where-Object { $_.T.StartsWith($current) } | ForEach-Object {
        $tip = if ($_.D) { $_.D } else { $_.T }
        [System.Management.Automation.CompletionResult]::new($prefix + $_.T, $_.T, $_.R, $tip)
    }
}
