# fish completion for lk: generated from lk's command tree by `lk completion fish` (npm run completions); do not edit.
# Install: lk completion fish > ~/.config/fish/completions/lk.fish

# Flags that take a value at the command path in $argv[1] ('' for lk itself), one a line.
function __lk_value_flags
    switch $argv[1]
        case 'auth login' 'auth switch' 'auth token' 'auth logout' schedule 'schedule list' 'schedule remove' alias 'alias list' 'alias set' 'alias delete' extension 'extension list' 'config get' 'config set' 'config unset' completion doctor
            printf '%s\n' --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case whoami 'library show' 'lists show' profile
            printf '%s\n' -o --output
        case library 'library list'
            printf '%s\n' --phase --domain --sort --order --db -o --output --page --limit --max
        case 'library history' 'profile achievements'
            printf '%s\n' -o --output --page --limit --max
        case history
            printf '%s\n' --from --to --domain --db -o --output --page --limit --max
        case lists 'lists list' notifications
            printf '%s\n' --db -o --output --page --limit --max
        case calendar
            printf '%s\n' --domain --db -o --output --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case next
            printf '%s\n' --domain --limit --seed --db -o --output
        case status
            printf '%s\n' --db -o --output --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case serve
            printf '%s\n' --host --port --sync-every --token-file --to --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case stats
            printf '%s\n' -o --output --domain --db
        case reviews
            printf '%s\n' --domain --db -o --output --page --limit --max
        case notify
            printf '%s\n' --to --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case export
            printf '%s\n' -o --output --output-dir --keep --max-age --git --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case diff sync
            printf '%s\n' --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case convert
            printf '%s\n' -o --output --since --domain --rating-scale --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case search
            printf '%s\n' --domain --phase --db -o --output --page --limit --max
        case sql
            printf '%s\n' --db
        case feed
            printf '%s\n' --limit --domain --since -o --output --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case report
            printf '%s\n' --year --from --to -o --output --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case publish
            printf '%s\n' --lists --title --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case card
            printf '%s\n' --theme -o --output --db --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case mcp
            printf '%s\n' --db --tools --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case open
            printf '%s\n' --list --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case api
            printf '%s\n' -F --field --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case 'schedule add'
            printf '%s\n' --every --dir --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
        case sandbox
            printf '%s\n' --port --host --seed --entries --rate-limit --export-interval --variant --tls-key --tls-cert --format --profile --base-url --fields --jq --lang --cache --max-wait --timeout --cacert
            return
    end
    printf '%s\n' --profile --base-url --format --fields --jq --lang --cache --max-wait --timeout --cacert
end

# The subcommand of command path $argv[1] called $argv[2] (a name or an alias), if there is one.
function __lk_child
    switch "$argv[1]|$argv[2]"
        case '|auth'
            echo auth
        case '|whoami'
            echo whoami
        case '|library'
            echo library
        case '|history'
            echo history
        case '|lists'
            echo lists
        case '|calendar'
            echo calendar
        case '|next'
            echo next
        case '|status'
            echo status
        case '|serve'
            echo serve
        case '|stats'
            echo stats
        case '|reviews'
            echo reviews
        case '|profile'
            echo profile
        case '|notifications'
            echo notifications
        case '|notify'
            echo notify
        case '|export'
            echo export
        case '|diff'
            echo diff
        case '|convert'
            echo convert
        case '|sync'
            echo sync
        case '|search'
            echo search
        case '|sql'
            echo sql
        case '|feed'
            echo feed
        case '|report'
            echo report
        case '|publish'
            echo publish
        case '|card'
            echo card
        case '|mcp'
            echo mcp
        case '|open'
            echo open
        case '|api'
            echo api
        case '|schedule'
            echo schedule
        case '|alias'
            echo alias
        case '|extension'
            echo extension
        case '|config'
            echo config
        case '|completion'
            echo completion
        case '|doctor'
            echo doctor
        case '|sandbox'
            echo sandbox
        case 'auth|login'
            echo login
        case 'auth|status'
            echo status
        case 'auth|switch'
            echo switch
        case 'auth|token'
            echo token
        case 'auth|logout'
            echo logout
        case 'library|list'
            echo list
        case 'library|show'
            echo show
        case 'library|history'
            echo history
        case 'lists|list'
            echo list
        case 'lists|show'
            echo show
        case 'profile|achievements'
            echo achievements
        case 'schedule|add'
            echo add
        case 'schedule|list'
            echo list
        case 'schedule|remove'
            echo remove
        case 'alias|list'
            echo list
        case 'alias|set'
            echo set
        case 'alias|delete'
            echo delete
        case 'extension|list'
            echo list
        case 'config|list'
            echo list
        case 'config|get'
            echo get
        case 'config|set'
            echo set
        case 'config|unset'
            echo unset
    end
end

# Sets __lk_path (e.g. "library list") and __lk_operands from the tokens before the cursor; once per command line.
function __lk_parse
    set -l words (commandline -opc)
    set -l key (string join \x1e -- $words)
    test "$key" = "$__lk_parsed_line"; and return
    set -g __lk_parsed_line $key
    set -e words[1]
    set -l path
    set -l operands 0
    set -l operand_words
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case '--*=*'
                continue
            case '-?*'
                contains -- $word (__lk_value_flags "$path"); and set skip 1
                continue
        end
        set -l child
        test $operands = 0; and set child (__lk_child "$path" $word)
        if test -n "$child"
            set path $path $child
        else
            set operands (math $operands + 1)
            set -a operand_words $word
        end
    end
    set -g __lk_path "$path"
    set -g __lk_operands $operands
    set -g __lk_operand_words $operand_words
end

function __lk_at --description 'Is the command line at one of these command paths?'
    __lk_parse
    contains -- "$__lk_path" $argv
end

function __lk_operand --description 'Is the next word operand $argv[2] (from 0; "more": or later) of command path $argv[1]?'
    __lk_parse
    test "$__lk_path" = "$argv[1]"; or return 1
    if test "$argv[3]" = more
        test $__lk_operands -ge $argv[2]
    else
        test $__lk_operands = $argv[2]
    end
end

function __lk_profiles --description 'Stored profile names'
    set -l command (commandline -opc)[1]
    $command completion --profiles 2>/dev/null
end

function __lk_dynamic --description 'Values known at Tab time: what lk ARGS prints ($argv[1] = 1: the operands typed before are added)'
    __lk_parse
    set -l command (commandline -opc)[1]
    set -l args $argv[2..-1]
    test "$argv[1]" = 1; and set -a args $__lk_operand_words
    $command $args 2>/dev/null
end

# No file names unless a flag asks for a file.
complete -c lk -f

# lk: subcommands
complete -c lk -n "__lk_operand '' 0" -a auth -d 'log in to an instance, check or forget the stored key'
complete -c lk -n "__lk_operand '' 0" -a whoami -d 'show the account, the key in use and its rate limit'
complete -c lk -n "__lk_operand '' 0" -a library -d 'your library: entries with their work, status and progress'
complete -c lk -n "__lk_operand '' 0" -a history -d 'what you watched, played, read and listened to, newest first'
complete -c lk -n "__lk_operand '' 0" -a lists -d 'your lists (and lists shared with you for editing), and what is on them'
complete -c lk -n "__lk_operand '' 0" -a calendar -d 'upcoming episodes of the shows you follow (up to 90 days, at most 60), in your local time'
complete -c lk -n "__lk_operand '' 0" -a next -d 'what to take up next: your entries in progress, most recently active first (or --random, one planned)'
complete -c lk -n "__lk_operand '' 0" -a status -d 'what is going on, in one screen: in progress, activity, airing this week, notifications, the mirror'
complete -c lk -n "__lk_operand '' 0" -a serve -d 'serve the mirror read-only over HTTP: calendar, feed, status, next and reports for apps and dashboards'
complete -c lk -n "__lk_operand '' 0" -a stats -d 'your stats summary, a section per group of figures'
complete -c lk -n "__lk_operand '' 0" -a reviews -d 'the reviews you wrote'
complete -c lk -n "__lk_operand '' 0" -a profile -d 'your public profile, and the achievements you unlocked'
complete -c lk -n "__lk_operand '' 0" -a notifications -d 'your notifications, newest first'
complete -c lk -n "__lk_operand '' 0" -a notify -d 'tell your phone (ntfy, e-mail, Discord, any Apprise URL) of episodes airing and new notifications, once'
complete -c lk -n "__lk_operand '' 0" -a export -d 'the full data export (cached: the server allows one per hour)'
complete -c lk -n "__lk_operand '' 0" -a diff -d 'what changed between two exports (or an export and the mirror): everything an export holds'
complete -c lk -n "__lk_operand '' 0" -a convert -d 'write files other services import: Letterboxd, Goodreads/StoryGraph, Yamtrack, MyAnimeList'
complete -c lk -n "__lk_operand '' 0" -a sync -d 'create or update the local SQLite mirror of your account (then lk search, lk sql, --offline)'
complete -c lk -n "__lk_operand '' 0" -a search -d 'full-text search of the mirror: titles, notes and reviews (lk sync first)'
complete -c lk -n "__lk_operand '' 0" -a sql -d 'run a read-only SQL query on the mirror, output in any format; --schema prints the schema'
complete -c lk -n "__lk_operand '' 0" -a feed -d 'your recent activity from the mirror as an Atom 1.0 feed (or JSON Feed 1.1), for a site or a feed reader'
complete -c lk -n "__lk_operand '' 0" -a report -d 'a year in review from the mirror: one HTML file to open, print and keep (or its figures with --json)'
complete -c lk -n "__lk_operand '' 0" -a publish -d 'write a static site of your library into DIR, from the mirror: only what anyone may see'
complete -c lk -n "__lk_operand '' 0" -a card -d 'an SVG card of your library from the mirror (stats, now, heatmap, year), for a README or a site'
complete -c lk -n "__lk_operand '' 0" -a mcp -d 'serve your library to an AI assistant: a read-only MCP server on stdio, answering from the mirror'
complete -c lk -n "__lk_operand '' 0" -a open -d 'open an entry\'s page in the web app in your browser (BROWSER), or print its URL'
complete -c lk -n "__lk_operand '' 0" -a api -d 'raw GET of any path under /v1; prints the JSON as the server sent it'
complete -c lk -n "__lk_operand '' 0" -a schedule -d 'run lk sync, a backup or lk notify unattended: a systemd user timer, else a crontab line'
complete -c lk -n "__lk_operand '' 0" -a alias -d 'shorter words for the commands you type often, as gh has them (kept per machine, in the config file)'
complete -c lk -n "__lk_operand '' 0" -a extension -d 'commands of your own: an executable lk-NAME on PATH runs as `lk NAME ARGS…`'
complete -c lk -n "__lk_operand '' 0" -a config -d 'stored defaults: format, lang, color, base-url, max-wait, timeout, max-body, pager, ca-file, notify, csv-safe (flags and environment still win)'
complete -c lk -n "__lk_operand '' 0" -a completion -d 'print the completion script for bash, zsh, fish or PowerShell (the same as completions/ in the package)'
complete -c lk -n "__lk_operand '' 0" -a doctor -d 'check Node, folders, key, instance, TLS, proxy, clock, rate limit, export hour and mirror; each with the fix'
complete -c lk -n "__lk_operand '' 0" -a sandbox -d 'run the bundled reference API with demo data on loopback, until interrupted'
complete -c lk -n "__lk_operand '' 0" -a '(__lk_dynamic 0 completion --aliases)' -d alias
complete -c lk -n "__lk_operand '' 0" -a '(__lk_dynamic 0 completion --extensions)' -d extension

# lk auth: subcommands
complete -c lk -n "__lk_operand auth 0" -a login -d 'check a key against the instance (GET /v1/me) and store it in the profile'
complete -c lk -n "__lk_operand auth 0" -a status -d 'which instance and key are in use, where they come from, and what the key may do'
complete -c lk -n "__lk_operand auth 0" -a switch -d 'make a stored profile the default (used when neither --profile nor LK_PROFILE names one)'
complete -c lk -n "__lk_operand auth 0" -a token -d 'print the key for scripts; refused on a terminal unless --show'
complete -c lk -n "__lk_operand auth 0" -a logout -d 'forget the profile\'s stored key'

# lk auth switch: operands
complete -c lk -n "__lk_operand 'auth switch' 0" -a '(__lk_dynamic 0 completion --profiles)' -d 'name'

# lk library: subcommands
complete -c lk -n "__lk_operand library 0" -a list -d 'list library entries, newest first'
complete -c lk -n "__lk_operand library 0" -a show -d 'one library entry by its id'
complete -c lk -n "__lk_operand library 0" -a history -d 'the history of one entry, undated events last'

# lk library show: operands
complete -c lk -n "__lk_operand 'library show' 0" -a '(__lk_dynamic 0 completion --ids entries)' -d 'id'

# lk library history: operands
complete -c lk -n "__lk_operand 'library history' 0" -a '(__lk_dynamic 0 completion --ids entries)' -d 'id'

# lk lists: subcommands
complete -c lk -n "__lk_operand lists 0" -a list -d 'your lists'
complete -c lk -n "__lk_operand lists 0" -a show -d 'the works, seasons and episodes on one list (--json prints the list itself)'

# lk lists show: operands
complete -c lk -n "__lk_operand 'lists show' 0" -a '(__lk_dynamic 0 completion --ids lists)' -d 'id'

# lk profile: subcommands
complete -c lk -n "__lk_operand profile 0" -a achievements -d 'your achievements, unlocked or in progress'

# lk convert: operands
complete -c lk -n "__lk_operand convert 0" -a 'letterboxd goodreads yamtrack mal' -d 'target'

# lk card: operands
complete -c lk -n "__lk_operand card 0" -a 'stats now heatmap year' -d 'kind'

# lk open: operands
complete -c lk -n "__lk_operand open 0" -a '(__lk_dynamic 0 completion --ids entries)' -d 'id'

# lk schedule: subcommands
complete -c lk -n "__lk_operand schedule 0" -a add -d 'install a job run unattended for this profile: a systemd user timer, else a crontab line'
complete -c lk -n "__lk_operand schedule 0" -a list -d 'lk\'s jobs, every profile\'s: each with its schedule, next run and last result'
complete -c lk -n "__lk_operand schedule 0" -a remove -d 'remove this profile\'s job: exactly what lk schedule add installed (its units, or its crontab line)'

# lk schedule add: operands
complete -c lk -n "__lk_operand 'schedule add' 0" -a 'sync backup notify' -d 'job'

# lk schedule remove: operands
complete -c lk -n "__lk_operand 'schedule remove' 0" -a 'sync backup notify' -d 'job'

# lk alias: subcommands
complete -c lk -n "__lk_operand alias 0" -a list -d 'list the aliases, one a line: NAME: EXPANSION (a shell alias starts with !)'
complete -c lk -n "__lk_operand alias 0" -a set -d 'make NAME stand for EXPANSION: `lk NAME ARGS…` runs `lk EXPANSION`, $1, $2… replaced, the rest appended'
complete -c lk -n "__lk_operand alias 0" -a delete -d 'forget an alias'

# lk alias set: operands
complete -c lk -n "__lk_operand 'alias set' 0" -a '(__lk_dynamic 0 completion --aliases)' -d 'name'

# lk alias delete: operands
complete -c lk -n "__lk_operand 'alias delete' 0" -a '(__lk_dynamic 0 completion --aliases)' -d 'name'

# lk extension: subcommands
complete -c lk -n "__lk_operand extension 0" -a list -d 'list the extensions on PATH, one a line: NAME and the file that runs'

# lk config: subcommands
complete -c lk -n "__lk_operand config 0" -a list -d 'every setting with its value and where it comes from; profiles with masked keys'
complete -c lk -n "__lk_operand config 0" -a get -d 'print the stored value of a setting (nothing, exit 0, when it is not set)'
complete -c lk -n "__lk_operand config 0" -a set -d 'store a default, checked first (a wrong value is refused with the allowed ones)'
complete -c lk -n "__lk_operand config 0" -a unset -d 'forget a stored default (the built-in one applies again)'

# lk config get: operands
complete -c lk -n "__lk_operand 'config get' 0" -a 'format lang color base-url max-wait timeout max-body pager ca-file notify csv-safe' -d 'setting'

# lk config set: operands
complete -c lk -n "__lk_operand 'config set' 0" -a 'format lang color base-url max-wait timeout max-body pager ca-file notify csv-safe' -d 'setting'
complete -c lk -n "__lk_operand 'config set' 1" -a '(__lk_dynamic 1 completion --setting-values)' -d 'value'

# lk config unset: operands
complete -c lk -n "__lk_operand 'config unset' 0" -a 'format lang color base-url max-wait timeout max-body pager ca-file notify csv-safe' -d 'setting'

# lk completion: operands
complete -c lk -n "__lk_operand completion 0" -a 'bash zsh fish powershell' -d 'shell'

# Flags of each command
complete -c lk -n "__lk_at 'auth login'" -l with-key -d 'read the key from standard input instead of asking'
complete -c lk -n "__lk_at 'auth login'" -l allow-http -d 'allow plain http to this non-loopback instance (a self-hosted one at home)'
complete -c lk -n "__lk_at 'auth login'" -l insecure-storage -d 'keep the key in the config file (mode 0600) even where a system keyring answers'
complete -c lk -n "__lk_at 'auth login' 'auth switch' 'auth token' 'auth logout' serve convert sync publish mcp open 'schedule remove' alias 'alias list' 'alias set' 'alias delete' extension 'extension list' 'config get' 'config set' 'config unset' completion" -l format -x -a '' -d 'output format: table, json, ndjson, csv, tsv'
complete -c lk -n "__lk_at 'auth token'" -l show -d 'print it even on a terminal (it stays on the screen and in the scrollback)'
complete -c lk -n "__lk_at whoami library 'library list' 'library show' 'library history' history lists 'lists list' 'lists show' next status stats reviews profile 'profile achievements' notifications search" -s o -l output -r -F -d 'write the output to this file, whole or not at all (0600 when new)'
complete -c lk -n "__lk_at library 'library list' search" -l phase -x -a 'PLANNED IN_PROGRESS DONE DROPPED' -d 'only entries in this phase'
complete -c lk -n "__lk_at library 'library list' history calendar next stats reviews search feed" -l domain -x -a 'MEDIA GAMES BOOKS MUSIC' -d 'only this domain'
complete -c lk -n "__lk_at library 'library list'" -l sort -x -a 'added title rating finished' -d 'sort by'
complete -c lk -n "__lk_at library 'library list'" -l order -x -a 'desc asc' -d 'desc keeps the natural order (newest, best, A to Z); asc reverses'
complete -c lk -n "__lk_at library 'library list' history lists 'lists list' calendar next status stats reviews notifications" -l offline -d 'answer from the local mirror (lk sync): no key, no request'
complete -c lk -n "__lk_at library 'library list' history lists 'lists list' calendar next status serve stats reviews notifications notify diff sync search sql feed report publish card mcp" -l db -r -F -d 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)'
complete -c lk -n "__lk_at library 'library list' 'library history' history lists 'lists list' reviews 'profile achievements' notifications search" -l page -x -d 'page to show, from 1'
complete -c lk -n "__lk_at library 'library list' 'library history' history lists 'lists list' reviews 'profile achievements' notifications search" -l limit -x -d 'items per page, 1 to 100 (default 20; 100 with --all)'
complete -c lk -n "__lk_at library 'library list' 'library history' history lists 'lists list' reviews 'profile achievements' notifications search" -l all -d 'every item, following pages to the end (streams as pages arrive)'
complete -c lk -n "__lk_at library 'library list' 'library history' history lists 'lists list' reviews 'profile achievements' notifications search" -l max -x -d 'stop after N items'
complete -c lk -n "__lk_at history" -l from -x -d 'from this day or moment: YYYY-MM-DD, ISO 8601 (local time without a zone), 7d, 2w, 12h, today, yesterday'
complete -c lk -n "__lk_at history" -l to -x -d 'up to this day (inclusive) or moment, in the same forms'
complete -c lk -n "__lk_at calendar" -s o -l output -r -F -d 'write the output (or the --format ics feed) to this file, whole or not at all'
complete -c lk -n "__lk_at calendar" -l spoiler-free -d 'with --format ics: leave episode titles out of the feed'
complete -c lk -n "__lk_at calendar" -l format -x -a 'table json ndjson csv tsv ics' -d 'output format: table, json, ndjson, csv, tsv'
complete -c lk -n "__lk_at next" -l limit -x -d 'at most N entries, 1 to 100 (default 20)'
complete -c lk -n "__lk_at next" -l all -d 'every entry in progress'
complete -c lk -n "__lk_at next" -l random -d 'one PLANNED entry picked at random instead'
complete -c lk -n "__lk_at next" -l seed -x -d 'with --random: the same pick for the same N and library'
complete -c lk -n "__lk_at status" -l json-schema -d 'print the JSON Schema of the --json object (schemas/status.schema.json) and exit'
complete -c lk -n "__lk_at status notify diff schedule 'schedule add' 'schedule list' doctor" -l format -x -a 'table json' -d 'output format: table, json, ndjson, csv, tsv'
complete -c lk -n "__lk_at serve" -l host -x -d 'the address to listen on (default 127.0.0.1; any other needs --token-file)'
complete -c lk -n "__lk_at serve" -l port -x -d 'the port (default 8787; 0 picks a free one)'
complete -c lk -n "__lk_at serve" -l sync-every -x -d 'run lk sync in the background this often, e.g. 15m, 1h (needs the key)'
complete -c lk -n "__lk_at serve" -l token-file -r -F -d 'require the token in this file as ?token= or Authorization: Bearer'
complete -c lk -n "__lk_at serve" -l mcp -d 'also serve lk mcp\'s MCP server at POST /mcp (Streamable HTTP), for assistants that reach lk over the network'
complete -c lk -n "__lk_at serve" -l replace -d 'with --sync-every: replace a mirror of another account with this key\'s (else refused, exit 1)'
complete -c lk -n "__lk_at serve" -l notify -d 'with --sync-every: run lk notify after each sync (to --to, else the config list notify)'
complete -c lk -n "__lk_at serve notify" -l to -x -d 'send here (repeatable); else the config list notify'
complete -c lk -n "__lk_at notify" -l sync -d 'run lk sync first (needs the key), then tell what is new'
complete -c lk -n "__lk_at notify" -l dry-run -d 'show what would be sent, and to which targets; send and record nothing'
complete -c lk -n "__lk_at notify" -l mark-sent -d 'record what is due as sent, without sending it (to start quiet)'
complete -c lk -n "__lk_at export" -s o -l output -r -F -d 'write the export to this file (whole or not at all)'
complete -c lk -n "__lk_at export" -l output-dir -x -a '(__fish_complete_directories (commandline -ct))' -d 'write lk-export-<account>-<UTC time fetched>.json (or a CSV folder) here'
complete -c lk -n "__lk_at export" -l keep -x -d 'with --output-dir: then delete all but the N newest exports of this account and kind there'
complete -c lk -n "__lk_at export" -l gzip -d 'compress what is written (.json.gz with --output-dir)'
complete -c lk -n "__lk_at export" -l max-age -x -d 'oldest cached export accepted, e.g. 30m, 6h, 2d (default 1h)'
complete -c lk -n "__lk_at export" -l fresh -d 'insist on a new export, asked of the server even within the hour: exit 5 when it refuses'
complete -c lk -n "__lk_at export" -l git -x -a '(__fish_complete_directories (commandline -ct))' -d 'keep the export as a git repository there: one JSON file per collection, a commit when anything changed'
complete -c lk -n "__lk_at export" -l format -x -a 'json csv' -d 'output format: table, json, ndjson, csv, tsv'
complete -c lk -n "__lk_at diff" -l exit-code -d 'exit 1 when anything differs, 0 when nothing does (as git diff --exit-code)'
complete -c lk -n "__lk_at convert" -s o -l output -r -F -d 'write this file (whole or not at all); Letterboxd over 1 MB: FILE-1.csv, FILE-2.csv, …'
complete -c lk -n "__lk_at convert" -l since -x -d 'only activity since then: a local date (2026-01-31), a moment (ISO 8601), 7d, 2w, 12h, today'
complete -c lk -n "__lk_at convert" -l domain -x -a 'MEDIA GAMES BOOKS MUSIC' -d 'only this domain (yamtrack holds all four)'
complete -c lk -n "__lk_at convert" -l strict -d 'exit 1 when any row was skipped, set aside, guessed or matched by title'
complete -c lk -n "__lk_at convert" -l rating-scale -x -a '5 10 100' -d 'the instance\'s rating scale (default: found from the ratings)'
complete -c lk -n "__lk_at convert" -l db -r -F -d 'read this lk sync mirror (default: the profile\'s mirror when it exists, else the export)'
complete -c lk -n "__lk_at sync" -l full -d 'ignore a cached export and read every page, never only what changed: the server as it is now, every row compared'
complete -c lk -n "__lk_at sync" -l replace -d 'replace a mirror of another account with this key\'s account (else refused, exit 1)'
complete -c lk -n "__lk_at sql" -l schema -d 'print the schema of the mirror (tables, indexes, full-text tables, views)'
complete -c lk -n "__lk_at feed" -l limit -x -d 'entries in the feed, newest first, 1 to 1000 (default 50)'
complete -c lk -n "__lk_at feed" -l since -x -d 'only activity since then: 7d, 2w, 12h, today, 2026-01-31'
complete -c lk -n "__lk_at feed" -l public -d 'leave out your notes, private reviews and the text of spoilers (see below)'
complete -c lk -n "__lk_at feed" -l sync -d 'run lk sync first (needs the key), then make the feed'
complete -c lk -n "__lk_at feed" -s o -l output -r -F -d 'write the feed to this file, whole or not at all (left untouched when unchanged)'
complete -c lk -n "__lk_at feed" -l format -x -a 'atom json' -d 'output format: table, json, ndjson, csv, tsv'
complete -c lk -n "__lk_at report" -l year -x -d 'the year to review (default: the last complete year; this year so far in December)'
complete -c lk -n "__lk_at report" -l from -x -d 'first day of the period instead: 2025-03-01, 30d, 2w, yesterday'
complete -c lk -n "__lk_at report" -l to -x -d 'last day of the period, included (2025-08-31, 7d, yesterday; default today)'
complete -c lk -n "__lk_at report" -s o -l output -r -F -d 'where the page goes (default lk-report-YYYY.html here), whole or not at all; - for stdout'
complete -c lk -n "__lk_at report" -l open -d 'open the page in your browser once written (BROWSER, as lk open does)'
complete -c lk -n "__lk_at report publish" -l sync -d 'bring the mirror up to date first (lk sync)'
complete -c lk -n "__lk_at report" -l format -x -a 'html json' -d 'output format: table, json, ndjson, csv, tsv'
complete -c lk -n "__lk_at publish" -l lists -x -d 'the lists published: public (default: those the API marks public), all, none, or ids (3,7)'
complete -c lk -n "__lk_at publish" -l title -x -d 'the site\'s name (default: the account\'s display name)'
complete -c lk -n "__lk_at card" -l theme -x -a 'light dark auto' -d 'light (the default), dark, or auto: the viewer’s colour scheme'
complete -c lk -n "__lk_at card" -s o -l output -r -F -d 'write the SVG to this file, whole or not at all (left untouched when unchanged)'
complete -c lk -n "__lk_at card" -l sync -d 'run lk sync first (needs the key), then draw the card'
complete -c lk -n "__lk_at card" -l format -x -a 'svg' -d 'output format: table, json, ndjson, csv, tsv'
complete -c lk -n "__lk_at mcp" -l live -d 'let get_entry, calendar and the stats summary ask the API, within the rate limit (default: the mirror only, no request)'
complete -c lk -n "__lk_at mcp" -l tools -x -d 'serve only these tools, comma-separated (of search, list_library, get_entry, history, stats, calendar, next_up, status, sql, recommend, list_lists, list_reviews, list_achievements, list_notifications)'
complete -c lk -n "__lk_at open" -l work -d 'the page of the entry\'s work instead of the entry\'s own'
complete -c lk -n "__lk_at open" -l list -x -d 'the page of this list instead'
complete -c lk -n "__lk_at open" -l profile-page -d 'your profile page instead'
complete -c lk -n "__lk_at open" -s n -l no-browser -d 'print the URL, do not open it'
complete -c lk -n "__lk_at api" -s F -l field -x -d 'add a query parameter (repeatable)'
complete -c lk -n "__lk_at api" -l paginate -d 'follow hasMore (limit=100 unless -F limit) and print one JSON array of every item'
complete -c lk -n "__lk_at api" -l include -d 'print the status line and response headers to stderr'
complete -c lk -n "__lk_at api" -l format -x -a 'json' -d 'output format: table, json, ndjson, csv, tsv'
complete -c lk -n "__lk_at 'schedule add'" -l every -x -d 'how often: 15m, 20m, 30m, 1h, 2h, 3h, 4h, 6h, 8h, 12h or 1d (default: sync 1h, backup 1d, notify 30m)'
complete -c lk -n "__lk_at 'schedule add'" -l dir -x -a '(__fish_complete_directories (commandline -ct))' -d 'backup\'s git repository (lk export --git DIR), made absolute now'
complete -c lk -n "__lk_at 'schedule add'" -l print -d 'show what would be installed (the units, or the crontab line); install nothing'
complete -c lk -n "__lk_at 'alias set'" -s s -l shell -d 'run the expansion through sh; the arguments are its "$1", "$2"…, "$@"'
complete -c lk -n "__lk_at doctor" -l json -d 'the checks as one JSON object: {ok, checks: [{id, status, message, fix}]}'
complete -c lk -n "__lk_at sandbox" -l port -x -d 'port to listen on (default: a free one)'
complete -c lk -n "__lk_at sandbox" -l host -x -d 'address to bind (default 127.0.0.1; anything else exposes the demo data)'
complete -c lk -n "__lk_at sandbox" -l seed -x -d 'seed of the generated data (same seed, same data)'
complete -c lk -n "__lk_at sandbox" -l entries -x -d 'library entries of the demo account (up to 100000)'
complete -c lk -n "__lk_at sandbox" -l rate-limit -x -d 'requests per minute per account (0 lifts the limit)'
complete -c lk -n "__lk_at sandbox" -l export-interval -x -d 'seconds between two exports of an account (default 3600; within its hour lk reads its cache, lk export --fresh asks)'
complete -c lk -n "__lk_at sandbox" -l variant -x -a 'default alt' -d 'alt: play a second implementation (UUID ids, other field names)'
complete -c lk -n "__lk_at sandbox" -l tls-key -r -F -d 'serve https with this PEM private key (with --tls-cert)'
complete -c lk -n "__lk_at sandbox" -l tls-cert -r -F -d 'serve https with this PEM certificate or chain (with --tls-key)'
complete -c lk -n "__lk_at sandbox" -l json -d 'print the base URL and the demo keys as one JSON object (for scripts and tests)'
complete -c lk -n "__lk_at sandbox" -l format -x -a 'lines json' -d 'output format: table, json, ndjson, csv, tsv'

# Global flags, accepted after any command
complete -c lk -s V -l version -d 'print the version'
complete -c lk -l profile -x -a '(__lk_profiles)' -d 'stored profile (account + instance)'
complete -c lk -l base-url -x -d 'the address in front of /v1'
complete -c lk -n "not __lk_at 'auth login' 'auth switch' 'auth token' 'auth logout' calendar status serve notify export diff convert sync feed report publish card mcp open api schedule 'schedule add' 'schedule list' 'schedule remove' alias 'alias list' 'alias set' 'alias delete' extension 'extension list' 'config get' 'config set' 'config unset' completion doctor sandbox" -l format -x -a 'table json ndjson csv tsv' -d 'output format: table, json, ndjson, csv, tsv'
complete -c lk -n "not __lk_at doctor sandbox" -l json -d 'shorthand for --format json'
complete -c lk -l ndjson -d 'shorthand for --format ndjson'
complete -c lk -l csv -d 'shorthand for --format csv'
complete -c lk -l tsv -d 'shorthand for --format tsv'
complete -c lk -l fields -x -d 'comma-separated dot paths to output, e.g. id,work.title,status; "help" lists them'
complete -c lk -l jq -x -d 'filter the JSON output with jq; strings print raw, one value a line'
complete -c lk -l no-header -d 'no header row in table, csv and tsv'
complete -c lk -l lang -x -a 'en fr it' -d 'language of film and series titles'
complete -c lk -l no-color -d 'no colour (also NO_COLOR)'
complete -c lk -l no-pager -d 'never page long output (pager: LK_PAGER, config pager, PAGER, else less -FRX)'
complete -c lk -l csv-safe -d 'prefix \' to csv cells a spreadsheet would run as a formula'
complete -c lk -s q -l quiet -d 'nothing on stderr but errors'
complete -c lk -s v -l verbose -d 'one stderr line per request (also LK_DEBUG=1); the key redacted'
complete -c lk -l cache -x -d 'answer reads from a local response cache younger than this, e.g. 30s, 5m, 1h (for prompts and status bars)'
complete -c lk -l no-wait -d 'on a rate limit, fail at once (exit 5) instead of waiting'
complete -c lk -l max-wait -x -d 'longest single wait for the rate limit (default 300)'
complete -c lk -l timeout -x -d 'per-request timeout (default 30)'
complete -c lk -l cacert -r -F -d 'trust this CA (PEM) for the instance, besides the usual ones (also LK_CA_FILE)'
complete -c lk -s h -l help -d 'show help'
