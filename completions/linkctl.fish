# fish completion for linkctl. Generated from the command tree by `linkctl completion fish`; do not edit.
# Install: copy this file to ~/.config/fish/completions/linkctl.fish

function __linkctl_descend
    switch "$argv[1]|$argv[2]"
        case '|login'
            echo 'login'
        case '|logout'
            echo 'logout'
        case '|profile'
            echo 'profile'
        case '|status'
            echo 'status'
        case '|keys'
            echo 'keys'
        case '|api'
            echo 'api'
        case '|completion'
            echo 'completion'
        case '|help'
            echo 'help'
        case 'profile|list' 'profile|ls'
            echo 'profile list'
        case 'profile|use'
            echo 'profile use'
        case 'profile|help'
            echo 'profile help'
        case 'keys|create'
            echo 'keys create'
        case 'keys|list' 'keys|ls'
            echo 'keys list'
        case 'keys|get'
            echo 'keys get'
        case 'keys|update'
            echo 'keys update'
        case 'keys|regenerate'
            echo 'keys regenerate'
        case 'keys|revoke'
            echo 'keys revoke'
        case 'keys|activate'
            echo 'keys activate'
        case 'keys|deactivate'
            echo 'keys deactivate'
        case 'keys|delete' 'keys|rm'
            echo 'keys delete'
        case 'keys|test'
            echo 'keys test'
        case 'keys|activity'
            echo 'keys activity'
        case 'keys|help'
            echo 'keys help'
    end
end

function __linkctl_takes_value
    switch "$argv[1]|$argv[2]"
        case '*|--url' '*|--api-key' '*|--profile' 'keys create|--name' 'keys create|--description' 'keys create|--expires-at' 'keys create|--permissions' 'keys create|--scope' 'keys create|--preset' 'keys create|--request-limit' 'keys create|--time-period' 'keys create|--allowed-ip' 'keys create|--allowed-origin' 'keys create|--environment' 'keys list|--status' 'keys list|--search' 'keys list|--page' 'keys list|--limit' 'keys update|--name' 'keys update|--description' 'keys update|--expires-at' 'keys update|--permissions' 'keys update|--scope' 'keys update|--preset' 'keys update|--request-limit' 'keys update|--time-period' 'keys update|--allowed-ip' 'keys update|--allowed-origin' 'keys activity|--page' 'keys activity|--limit' 'api|-F' 'api|--field' 'api|-f' 'api|--raw-field' 'api|-H' 'api|--header' 'api|--input' 'completion|--dir'
            return 0
    end
    return 1
end

function __linkctl_path
    set -l p ''
    set -l skip 0
    for w in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if string match -q -- '-*' $w
            __linkctl_takes_value "$p" $w; and set skip 1
            continue
        end
        set -l next (__linkctl_descend "$p" $w)
        test -n "$next"; and set p $next
    end
    echo $p
end

function __linkctl_at
    set -l p (__linkctl_path)
    test "$p" = "$argv[1]"
end

complete -c linkctl -f
complete -c linkctl -l url -x -d 'linkd base URL (env LINKCTL_URL; default http://127.0.0.1:8080)'
complete -c linkctl -l api-key -x -d 'API key (env LINKCTL_API_KEY)'
complete -c linkctl -l profile -x -d 'saved profile to use (env LINKCTL_PROFILE)'
complete -c linkctl -s h -l help -d 'display help for command'
complete -c linkctl -n '__linkctl_at \'\'' -a 'login' -d 'save a daemon URL and API key as a profile (uses --url, --api-key, --profile)'
complete -c linkctl -n '__linkctl_at \'\'' -a 'logout' -d 'remove the saved API key of the current profile (or --profile)'
complete -c linkctl -n '__linkctl_at \'\'' -a 'profile' -d 'list and switch saved profiles'
complete -c linkctl -n '__linkctl_at \'\'' -a 'status' -d 'show daemon health, readiness and jobs, and who the current key is'
complete -c linkctl -n '__linkctl_at \'\'' -a 'keys' -d 'manage API keys'
complete -c linkctl -n '__linkctl_at \'\'' -a 'api' -d 'call any endpoint with the current profile and print the JSON response'
complete -c linkctl -n '__linkctl_at \'\'' -a 'completion' -d 'print the shell completion script (bash, zsh or fish)'
complete -c linkctl -n '__linkctl_at \'\'' -a 'help' -d 'show help for a command, or a topic: exit-codes'
complete -c linkctl -n '__linkctl_at \'\'' -s V -l version -d 'print the linkctl version'
complete -c linkctl -n '__linkctl_at \'profile\'' -a 'list' -d 'list saved profiles (keys masked)'
complete -c linkctl -n '__linkctl_at \'profile\'' -a 'use' -d 'make a saved profile the current one'
complete -c linkctl -n '__linkctl_at \'profile\'' -a 'help' -d 'display help for command'
complete -c linkctl -n '__linkctl_at \'profile list\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'status\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'create' -d 'create an API key (the full key is shown once)'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'list' -d 'list API keys'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'get' -d 'show one API key'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'update' -d 'change an API key'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'regenerate' -d 'replace the key value (the old one stops working; the new one is shown once)'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'revoke' -d 'revoke a key for good'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'activate' -d 'reactivate an inactive key'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'deactivate' -d 'suspend a key until it is activated again'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'delete' -d 'delete an API key (asks for confirmation on a terminal)'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'test' -d 'check whether a key is valid (exit 4 when it is not)'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'activity' -d 'show a key\'s recent requests'
complete -c linkctl -n '__linkctl_at \'keys\'' -a 'help' -d 'display help for command'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l name -x -d 'key name (up to 100 characters)'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l description -x -d 'description'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l expires-at -x -d 'expiry: ISO date/time, 30d/12h/90m/2w from now, or never'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l permissions -x -d 'comma-separated scopes, e.g. links:read,links:write'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l scope -x -a 'links:read links:write links:delete analytics:read qrCodes:read qrCodes:write qrCodes:delete domains:read domains:write domains:delete webhooks:read webhooks:write smartLinks:read smartLinks:write smartLinks:delete keys:read keys:write games:read games:write fraud:read fraud:write skan:read skan:write gdpr:read gdpr:write qr:read qr:write qr:delete' -d 'add one scope (repeatable)'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l preset -x -a 'read-only full analytics-only' -d 'scope preset'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l request-limit -x -d 'requests allowed per time period'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l time-period -x -a 'minute hour day' -d 'rate-limit window'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l allowed-ip -x -d 'allow this IP or CIDR range (repeatable; none = any IP)'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l allowed-origin -x -d 'allowed origin URL (repeatable)'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l environment -x -a 'live test' -d 'key environment'
complete -c linkctl -n '__linkctl_at \'keys create\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'keys list\'' -l status -x -a 'active inactive revoked expired' -d 'only keys with this status'
complete -c linkctl -n '__linkctl_at \'keys list\'' -l search -x -d 'match name or description'
complete -c linkctl -n '__linkctl_at \'keys list\'' -l page -x -d 'page number, from 1'
complete -c linkctl -n '__linkctl_at \'keys list\'' -l limit -x -a '10 20 50 100' -d 'page size'
complete -c linkctl -n '__linkctl_at \'keys list\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'keys get\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l name -x -d 'key name (up to 100 characters)'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l description -x -d 'description ("" clears it)'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l expires-at -x -d 'expiry: ISO date/time, 30d/12h/90m/2w from now, or never'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l permissions -x -d 'comma-separated scopes, e.g. links:read,links:write'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l scope -x -a 'links:read links:write links:delete analytics:read qrCodes:read qrCodes:write qrCodes:delete domains:read domains:write domains:delete webhooks:read webhooks:write smartLinks:read smartLinks:write smartLinks:delete keys:read keys:write games:read games:write fraud:read fraud:write skan:read skan:write gdpr:read gdpr:write qr:read qr:write qr:delete' -d 'add one scope (repeatable)'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l preset -x -a 'read-only full analytics-only' -d 'replace scopes with a preset'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l request-limit -x -d 'requests allowed per time period'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l time-period -x -a 'minute hour day' -d 'rate-limit window'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l allowed-ip -x -d 'allow this IP or CIDR range (repeatable; none = any IP)'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l allowed-origin -x -d 'allowed origin URL (repeatable)'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l clear-allowed-ips -d 'remove every allowed IP (any IP may use the key)'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l clear-allowed-origins -d 'remove every allowed origin'
complete -c linkctl -n '__linkctl_at \'keys update\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'keys regenerate\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'keys revoke\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'keys activate\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'keys deactivate\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'keys delete\'' -s y -l yes -d 'do not ask for confirmation (required without a terminal)'
complete -c linkctl -n '__linkctl_at \'keys test\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'keys activity\'' -l page -x -d 'page number, from 1'
complete -c linkctl -n '__linkctl_at \'keys activity\'' -l limit -x -a '10 20 50 100' -d 'page size'
complete -c linkctl -n '__linkctl_at \'keys activity\'' -l json -d 'print the result as JSON'
complete -c linkctl -n '__linkctl_at \'api\'' -s F -l field -x -d 'typed field: true/false/null/numbers as JSON, @file reads a file (repeatable)'
complete -c linkctl -n '__linkctl_at \'api\'' -s f -l raw-field -x -d 'string field (repeatable)'
complete -c linkctl -n '__linkctl_at \'api\'' -s H -l header -x -d 'extra request header (repeatable)'
complete -c linkctl -n '__linkctl_at \'api\'' -l input -r -F -d 'read the JSON request body from a file, or - for stdin'
complete -c linkctl -n '__linkctl_at \'api\'' -s i -l include -d 'print the status line and response headers first'
complete -c linkctl -n '__linkctl_at \'api\'' -l silent -d 'do not print the response body'
complete -c linkctl -n '__linkctl_at \'completion\'' -a 'bash zsh fish all'
complete -c linkctl -n '__linkctl_at \'completion\'' -l write -d 'write the file(s) into the package\'s completions/ directory instead of printing'
complete -c linkctl -n '__linkctl_at \'completion\'' -l dir -r -F -d 'with --write: the directory to write into'
complete -c linkctl -n '__linkctl_at \'help\'' -a 'login logout profile status keys api completion exit-codes'
