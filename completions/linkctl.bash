# bash completion for linkctl. Generated from the command tree by `linkctl completion bash`; do not edit.
# Install: source this file, or copy it to ~/.local/share/bash-completion/completions/linkctl

_linkctl_descend() {
  case "$1|$2" in
    '|login') echo 'login' ;;
    '|logout') echo 'logout' ;;
    '|profile') echo 'profile' ;;
    '|status') echo 'status' ;;
    '|whoami') echo 'whoami' ;;
    '|keys') echo 'keys' ;;
    '|team') echo 'team' ;;
    '|links') echo 'links' ;;
    '|smart-links'|'|sl') echo 'smart-links' ;;
    '|qr') echo 'qr' ;;
    '|domains') echo 'domains' ;;
    '|webhooks') echo 'webhooks' ;;
    '|safety') echo 'safety' ;;
    '|games') echo 'games' ;;
    '|events') echo 'events' ;;
    '|analytics') echo 'analytics' ;;
    '|export') echo 'export' ;;
    '|exports') echo 'exports' ;;
    '|fraud') echo 'fraud' ;;
    '|skan') echo 'skan' ;;
    '|gdpr') echo 'gdpr' ;;
    '|audit') echo 'audit' ;;
    '|api') echo 'api' ;;
    '|tui'|'|dashboard') echo 'tui' ;;
    '|completion') echo 'completion' ;;
    '|help') echo 'help' ;;
    'profile|list'|'profile|ls') echo 'profile list' ;;
    'profile|use') echo 'profile use' ;;
    'profile|help') echo 'profile help' ;;
    'keys|create') echo 'keys create' ;;
    'keys|list'|'keys|ls') echo 'keys list' ;;
    'keys|get') echo 'keys get' ;;
    'keys|update') echo 'keys update' ;;
    'keys|regenerate') echo 'keys regenerate' ;;
    'keys|revoke') echo 'keys revoke' ;;
    'keys|activate') echo 'keys activate' ;;
    'keys|deactivate') echo 'keys deactivate' ;;
    'keys|delete'|'keys|rm') echo 'keys delete' ;;
    'keys|test') echo 'keys test' ;;
    'keys|activity') echo 'keys activity' ;;
    'keys|help') echo 'keys help' ;;
    'team|members'|'team|list'|'team|ls') echo 'team members' ;;
    'team|invite') echo 'team invite' ;;
    'team|invitations') echo 'team invitations' ;;
    'team|revoke-invite') echo 'team revoke-invite' ;;
    'team|role') echo 'team role' ;;
    'team|remove'|'team|rm') echo 'team remove' ;;
    'team|join') echo 'team join' ;;
    'team|help') echo 'team help' ;;
    'links|create') echo 'links create' ;;
    'links|list'|'links|ls') echo 'links list' ;;
    'links|get') echo 'links get' ;;
    'links|update') echo 'links update' ;;
    'links|delete'|'links|rm') echo 'links delete' ;;
    'links|open') echo 'links open' ;;
    'links|qr') echo 'links qr' ;;
    'links|share') echo 'links share' ;;
    'links|stats') echo 'links stats' ;;
    'links|clicks') echo 'links clicks' ;;
    'links|import') echo 'links import' ;;
    'links|export') echo 'links export' ;;
    'links|help') echo 'links help' ;;
    'smart-links|create') echo 'smart-links create' ;;
    'smart-links|list'|'smart-links|ls') echo 'smart-links list' ;;
    'smart-links|get') echo 'smart-links get' ;;
    'smart-links|update') echo 'smart-links update' ;;
    'smart-links|delete'|'smart-links|rm') echo 'smart-links delete' ;;
    'smart-links|stats') echo 'smart-links stats' ;;
    'smart-links|help') echo 'smart-links help' ;;
    'qr|create') echo 'qr create' ;;
    'qr|list'|'qr|ls') echo 'qr list' ;;
    'qr|get') echo 'qr get' ;;
    'qr|update') echo 'qr update' ;;
    'qr|delete'|'qr|rm') echo 'qr delete' ;;
    'qr|image') echo 'qr image' ;;
    'qr|help') echo 'qr help' ;;
    'domains|add') echo 'domains add' ;;
    'domains|list'|'domains|ls') echo 'domains list' ;;
    'domains|get') echo 'domains get' ;;
    'domains|verify') echo 'domains verify' ;;
    'domains|check') echo 'domains check' ;;
    'domains|ssl') echo 'domains ssl' ;;
    'domains|set-default') echo 'domains set-default' ;;
    'domains|update') echo 'domains update' ;;
    'domains|app-links') echo 'domains app-links' ;;
    'domains|delete'|'domains|rm'|'domains|remove') echo 'domains delete' ;;
    'domains|stats') echo 'domains stats' ;;
    'domains|help') echo 'domains help' ;;
    'webhooks|create') echo 'webhooks create' ;;
    'webhooks|list'|'webhooks|ls') echo 'webhooks list' ;;
    'webhooks|get') echo 'webhooks get' ;;
    'webhooks|update') echo 'webhooks update' ;;
    'webhooks|enable') echo 'webhooks enable' ;;
    'webhooks|disable') echo 'webhooks disable' ;;
    'webhooks|suspend') echo 'webhooks suspend' ;;
    'webhooks|delete'|'webhooks|rm') echo 'webhooks delete' ;;
    'webhooks|rotate-secret') echo 'webhooks rotate-secret' ;;
    'webhooks|test') echo 'webhooks test' ;;
    'webhooks|deliveries') echo 'webhooks deliveries' ;;
    'webhooks|retry') echo 'webhooks retry' ;;
    'webhooks|health') echo 'webhooks health' ;;
    'webhooks|templates') echo 'webhooks templates' ;;
    'webhooks|validate-url') echo 'webhooks validate-url' ;;
    'webhooks|sign') echo 'webhooks sign' ;;
    'webhooks|verify') echo 'webhooks verify' ;;
    'webhooks|listen') echo 'webhooks listen' ;;
    'webhooks|help') echo 'webhooks help' ;;
    'safety|lists') echo 'safety lists' ;;
    'safety|help') echo 'safety help' ;;
    'safety lists|list'|'safety lists|ls') echo 'safety lists list' ;;
    'safety lists|add') echo 'safety lists add' ;;
    'safety lists|remove'|'safety lists|rm') echo 'safety lists remove' ;;
    'safety lists|help') echo 'safety lists help' ;;
    'games|create') echo 'games create' ;;
    'games|list'|'games|ls') echo 'games list' ;;
    'games|get') echo 'games get' ;;
    'games|update') echo 'games update' ;;
    'games|regenerate-key') echo 'games regenerate-key' ;;
    'games|help') echo 'games help' ;;
    'events|send') echo 'events send' ;;
    'events|help') echo 'events help' ;;
    'analytics|overview') echo 'analytics overview' ;;
    'analytics|retention') echo 'analytics retention' ;;
    'analytics|funnel') echo 'analytics funnel' ;;
    'analytics|leaderboard') echo 'analytics leaderboard' ;;
    'analytics|geography') echo 'analytics geography' ;;
    'analytics|events') echo 'analytics events' ;;
    'analytics|export') echo 'analytics export' ;;
    'analytics|revenue') echo 'analytics revenue' ;;
    'analytics|attribution') echo 'analytics attribution' ;;
    'analytics|segments') echo 'analytics segments' ;;
    'analytics|players') echo 'analytics players' ;;
    'analytics|player') echo 'analytics player' ;;
    'analytics|help') echo 'analytics help' ;;
    'export|events') echo 'export events' ;;
    'export|clicks') echo 'export clicks' ;;
    'export|help') echo 'export help' ;;
    'exports|destinations') echo 'exports destinations' ;;
    'exports|help') echo 'exports help' ;;
    'exports destinations|add') echo 'exports destinations add' ;;
    'exports destinations|list'|'exports destinations|ls') echo 'exports destinations list' ;;
    'exports destinations|remove'|'exports destinations|rm') echo 'exports destinations remove' ;;
    'exports destinations|run') echo 'exports destinations run' ;;
    'exports destinations|help') echo 'exports destinations help' ;;
    'fraud|dashboard') echo 'fraud dashboard' ;;
    'fraud|events') echo 'fraud events' ;;
    'fraud|review') echo 'fraud review' ;;
    'fraud|watch') echo 'fraud watch' ;;
    'fraud|rules') echo 'fraud rules' ;;
    'fraud|blocklist') echo 'fraud blocklist' ;;
    'fraud|help') echo 'fraud help' ;;
    'fraud rules|list'|'fraud rules|ls') echo 'fraud rules list' ;;
    'fraud rules|create') echo 'fraud rules create' ;;
    'fraud rules|update') echo 'fraud rules update' ;;
    'fraud rules|enable') echo 'fraud rules enable' ;;
    'fraud rules|disable') echo 'fraud rules disable' ;;
    'fraud rules|delete'|'fraud rules|rm') echo 'fraud rules delete' ;;
    'fraud rules|help') echo 'fraud rules help' ;;
    'fraud blocklist|list'|'fraud blocklist|ls') echo 'fraud blocklist list' ;;
    'fraud blocklist|add') echo 'fraud blocklist add' ;;
    'fraud blocklist|remove'|'fraud blocklist|rm') echo 'fraud blocklist remove' ;;
    'fraud blocklist|help') echo 'fraud blocklist help' ;;
    'skan|campaigns') echo 'skan campaigns' ;;
    'skan|schema') echo 'skan schema' ;;
    'skan|postbacks') echo 'skan postbacks' ;;
    'skan|optimize') echo 'skan optimize' ;;
    'skan|help') echo 'skan help' ;;
    'skan campaigns|list'|'skan campaigns|ls') echo 'skan campaigns list' ;;
    'skan campaigns|create') echo 'skan campaigns create' ;;
    'skan campaigns|update') echo 'skan campaigns update' ;;
    'skan campaigns|show'|'skan campaigns|get') echo 'skan campaigns show' ;;
    'skan campaigns|help') echo 'skan campaigns help' ;;
    'skan schema|edit') echo 'skan schema edit' ;;
    'skan schema|help') echo 'skan schema help' ;;
    'gdpr|delete') echo 'gdpr delete' ;;
    'gdpr|status') echo 'gdpr status' ;;
    'gdpr|list'|'gdpr|ls') echo 'gdpr list' ;;
    'gdpr|help') echo 'gdpr help' ;;
  esac
}

_linkctl_takes_value() {
  case "$1|$2" in
    *'|--url'|*'|--api-key'|*'|--profile'|'keys create|--name'|'keys create|--description'|'keys create|--expires-at'|'keys create|--permissions'|'keys create|--scope'|'keys create|--preset'|'keys create|--request-limit'|'keys create|--time-period'|'keys create|--allowed-ip'|'keys create|--allowed-origin'|'keys create|--environment'|'keys list|--status'|'keys list|--search'|'keys list|--page'|'keys list|--limit'|'keys list|--columns'|'keys update|--name'|'keys update|--description'|'keys update|--expires-at'|'keys update|--permissions'|'keys update|--scope'|'keys update|--preset'|'keys update|--request-limit'|'keys update|--time-period'|'keys update|--allowed-ip'|'keys update|--allowed-origin'|'keys activity|--page'|'keys activity|--limit'|'keys activity|--columns'|'team members|--role'|'team members|--page'|'team members|--limit'|'team members|--columns'|'team invite|--role'|'team invitations|--status'|'team invitations|--page'|'team invitations|--limit'|'team invitations|--columns'|'team join|--name'|'links create|-d'|'links create|--destination'|'links create|--title'|'links create|--short-code'|'links create|--domain'|'links create|--expires-at'|'links create|--tag'|'links create|--meta'|'links create|--redirect-type'|'links create|--expired-url'|'links create|--max-clicks'|'links create|--starts-at'|'links create|--rule'|'links create|--variant'|'links create|--og-title'|'links create|--og-description'|'links create|--og-image'|'links list|--search'|'links list|--status'|'links list|--tag'|'links list|--sort'|'links list|--order'|'links list|--page'|'links list|--limit'|'links list|--columns'|'links update|-d'|'links update|--destination'|'links update|--title'|'links update|--short-code'|'links update|--expires-at'|'links update|--tag'|'links update|--meta'|'links update|--redirect-type'|'links update|--expired-url'|'links update|--max-clicks'|'links update|--starts-at'|'links update|--rule'|'links update|--variant'|'links update|--og-title'|'links update|--og-description'|'links update|--og-image'|'links update|--domain'|'links update|--status'|'links qr|--format'|'links qr|-o'|'links qr|--output'|'links qr|--size'|'links stats|--start'|'links stats|--end'|'links stats|--interval'|'links clicks|--start'|'links clicks|--end'|'links import|--from'|'links import|--format'|'links import|--chunk-size'|'links import|--failed-out'|'links export|--format'|'links export|-o'|'links export|--output'|'links export|--status'|'links export|--tag'|'links export|--search'|'smart-links create|--fallback'|'smart-links create|--ios'|'smart-links create|--android'|'smart-links create|--desktop'|'smart-links create|--title'|'smart-links create|--tag'|'smart-links create|--short-code'|'smart-links create|--domain'|'smart-links create|--game'|'smart-links create|--variant'|'smart-links list|--search'|'smart-links list|--tag'|'smart-links list|--page'|'smart-links list|--limit'|'smart-links list|--columns'|'smart-links update|--fallback'|'smart-links update|--ios'|'smart-links update|--android'|'smart-links update|--desktop'|'smart-links update|--title'|'smart-links update|--tag'|'smart-links update|--short-code'|'smart-links update|--domain'|'smart-links update|--game'|'smart-links update|--variant'|'smart-links stats|--start'|'smart-links stats|--end'|'smart-links stats|--interval'|'qr create|--title'|'qr create|--foreground'|'qr create|--background'|'qr create|--error-correction'|'qr create|--margin'|'qr create|--logo'|'qr list|--link'|'qr list|--page'|'qr list|--limit'|'qr list|--columns'|'qr update|--title'|'qr update|--foreground'|'qr update|--background'|'qr update|--error-correction'|'qr update|--margin'|'qr update|--logo'|'qr image|--format'|'qr image|-o'|'qr image|--output'|'qr image|--size'|'domains add|--method'|'domains list|--page'|'domains list|--limit'|'domains list|--status'|'domains list|--columns'|'domains update|--root-redirect'|'domains update|--method'|'domains app-links|--ios-app-id'|'domains app-links|--ios-path'|'domains app-links|--android-package'|'domains app-links|--android-fingerprint'|'webhooks create|--name'|'webhooks create|--description'|'webhooks create|--event'|'webhooks create|--retry-policy'|'webhooks create|--max-retries'|'webhooks create|--timeout'|'webhooks create|--header'|'webhooks create|--format'|'webhooks create|--template'|'webhooks list|--status'|'webhooks list|--event'|'webhooks list|--page'|'webhooks list|--limit'|'webhooks list|--columns'|'webhooks update|--name'|'webhooks update|--endpoint'|'webhooks update|--description'|'webhooks update|--event'|'webhooks update|--retry-policy'|'webhooks update|--max-retries'|'webhooks update|--timeout'|'webhooks update|--header'|'webhooks update|--format'|'webhooks test|--event'|'webhooks deliveries|--status'|'webhooks deliveries|--event'|'webhooks deliveries|--page'|'webhooks deliveries|--limit'|'webhooks deliveries|--columns'|'webhooks templates|--page'|'webhooks templates|--limit'|'webhooks sign|--secret'|'webhooks sign|--timestamp'|'webhooks sign|--payload'|'webhooks sign|--payload-file'|'webhooks verify|--secret'|'webhooks verify|--signature'|'webhooks verify|--timestamp'|'webhooks verify|--tolerance'|'webhooks verify|--payload'|'webhooks verify|--payload-file'|'webhooks listen|--port'|'webhooks listen|--host'|'webhooks listen|--secret'|'webhooks listen|--tolerance'|'webhooks listen|--forward-to'|'webhooks listen|--event'|'webhooks listen|--receiver-url'|'safety lists list|--page'|'safety lists list|--limit'|'safety lists list|--columns'|'safety lists add|--name'|'safety lists add|--format'|'games create|--name'|'games create|--platform'|'games create|--slug'|'games create|--status'|'games create|--raw-retention-days'|'games create|--compacted-retention-months'|'games create|--replay-window'|'games create|--attribution-window'|'games create|--currency'|'games create|--whale'|'games create|--dolphin'|'games list|--status'|'games list|--page'|'games list|--limit'|'games list|--columns'|'games update|--name'|'games update|--status'|'games update|--raw-retention-days'|'games update|--compacted-retention-months'|'games update|--replay-window'|'games update|--attribution-window'|'games update|--currency'|'games update|--whale'|'games update|--dolphin'|'events send|--game'|'events send|--org'|'events send|--sdk-key'|'events send|--signing-secret'|'analytics overview|--start-date'|'analytics overview|--end-date'|'analytics retention|--start-date'|'analytics retention|--end-date'|'analytics retention|--granularity'|'analytics retention|--group-by'|'analytics retention|--return-event'|'analytics funnel|--start-date'|'analytics funnel|--end-date'|'analytics funnel|--steps'|'analytics funnel|--window'|'analytics funnel|--group-by'|'analytics leaderboard|--start-date'|'analytics leaderboard|--end-date'|'analytics leaderboard|--limit'|'analytics geography|--start-date'|'analytics geography|--end-date'|'analytics events|--start-date'|'analytics events|--end-date'|'analytics export|--type'|'analytics export|--format'|'analytics export|-o'|'analytics export|--output'|'analytics export|--limit'|'analytics export|--group-by'|'analytics export|--granularity'|'analytics export|--start-date'|'analytics export|--end-date'|'analytics revenue|--group-by'|'analytics revenue|--start-date'|'analytics revenue|--end-date'|'analytics attribution|--group-by'|'analytics attribution|--start-date'|'analytics attribution|--end-date'|'analytics players|--search'|'analytics players|--platform'|'analytics players|--country'|'analytics players|--segment'|'analytics players|--min-revenue'|'analytics players|--active-from'|'analytics players|--active-to'|'analytics players|--sort'|'analytics players|--order'|'analytics players|--page'|'analytics players|--limit'|'analytics players|--columns'|'analytics player|--page'|'analytics player|--limit'|'export events|--start-date'|'export events|--end-date'|'export events|--format'|'export events|-o'|'export events|--output'|'export clicks|--start-date'|'export clicks|--end-date'|'export clicks|--format'|'export clicks|-o'|'export clicks|--output'|'export clicks|--link'|'exports destinations add|--bucket'|'exports destinations add|--datasets'|'exports destinations add|--endpoint'|'exports destinations add|--prefix'|'exports destinations add|--region'|'exports destinations add|--access-key-id'|'exports destinations add|--secret-access-key'|'exports destinations add|--format'|'exports destinations add|--game'|'exports destinations list|--page'|'exports destinations list|--limit'|'exports destinations list|--columns'|'exports destinations run|--date'|'fraud dashboard|--start-date'|'fraud dashboard|--end-date'|'fraud events|--threat'|'fraud events|--status'|'fraud events|--player'|'fraud events|--start-date'|'fraud events|--end-date'|'fraud events|--page'|'fraud events|--limit'|'fraud events|--columns'|'fraud watch|--interval'|'fraud rules list|--page'|'fraud rules list|--limit'|'fraud rules list|--columns'|'fraud rules create|--name'|'fraud rules create|--action'|'fraud rules create|--field'|'fraud rules create|--operator'|'fraud rules create|--value'|'fraud rules create|--priority'|'fraud rules create|--cooldown'|'fraud rules update|--name'|'fraud rules update|--action'|'fraud rules update|--field'|'fraud rules update|--operator'|'fraud rules update|--value'|'fraud rules update|--priority'|'fraud rules update|--cooldown'|'fraud blocklist list|--page'|'fraud blocklist list|--limit'|'fraud blocklist list|--columns'|'fraud blocklist add|--type'|'fraud blocklist add|--reason'|'skan campaigns list|--page'|'skan campaigns list|--limit'|'skan campaigns list|--columns'|'skan campaigns create|--name'|'skan campaigns create|--ad-network'|'skan campaigns create|--affiliate'|'skan campaigns create|--source-id'|'skan campaigns create|--lock-window'|'skan campaigns create|--schema'|'skan campaigns update|--name'|'skan campaigns update|--ad-network'|'skan campaigns update|--affiliate'|'skan campaigns update|--source-id'|'skan campaigns update|--lock-window'|'skan campaigns update|--schema'|'skan postbacks|--page'|'skan postbacks|--limit'|'skan postbacks|--columns'|'gdpr delete|--game'|'gdpr delete|--player'|'gdpr delete|--reason'|'gdpr delete|--confirm'|'gdpr list|--game'|'gdpr list|--status'|'gdpr list|--page'|'gdpr list|--limit'|'gdpr list|--columns'|'audit|--member'|'audit|--action'|'audit|--resource-type'|'audit|--since'|'audit|--until'|'audit|--page'|'audit|--limit'|'audit|--columns'|'api|-F'|'api|--field'|'api|-f'|'api|--raw-field'|'api|-H'|'api|--header'|'api|--input'|'tui|--refresh'|'completion|--dir') return 0 ;;
  esac
  return 1
}

_linkctl_has_second() {
  case "$1" in
    'api') return 0 ;;
  esac
  return 1
}

_linkctl_second() {
  case "$1|$2" in
    'api|GET'|'api|get') echo '/api/audit-log /api/domains /api/domains/stats /api/domains/{domainId} /api/domains/{domainId}/app-links /api/domains/{domainId}/ssl /api/exports/destinations /api/keys /api/keys/{id} /api/keys/{id}/activity /api/safety/lists /api/safety/lists/{id} /api/team/invitations /api/team/me /api/team/members /api/use /api/use/analytics/clicks /api/use/analytics/clicks/export /api/use/analytics/links/{id} /api/use/links /api/use/links/{id} /api/use/links/{id}/qr /api/use/qr-codes /api/use/qr-codes/{id} /api/use/qr-codes/{id}/image /api/use/smart-links /api/use/smart-links/{id} /api/v1/admin/fraud/games/{gameId}/blocklist /api/v1/admin/fraud/games/{gameId}/dashboard /api/v1/admin/fraud/games/{gameId}/events /api/v1/admin/fraud/games/{gameId}/rules /api/v1/admin/games /api/v1/admin/games/{gameId} /api/v1/analytics/games/{gameId}/attribution /api/v1/analytics/games/{gameId}/events /api/v1/analytics/games/{gameId}/export /api/v1/analytics/games/{gameId}/geography /api/v1/analytics/games/{gameId}/leaderboard /api/v1/analytics/games/{gameId}/overview /api/v1/analytics/games/{gameId}/players /api/v1/analytics/games/{gameId}/players/{playerId} /api/v1/analytics/games/{gameId}/retention /api/v1/analytics/games/{gameId}/revenue /api/v1/analytics/games/{gameId}/segments /api/v1/gaming/analytics/funnel /api/v1/gaming/export /api/v1/gaming/gdpr/deletions /api/v1/gaming/gdpr/deletions/{id} /api/v1/skan/campaigns/{campaignId} /api/v1/skan/campaigns/{campaignId}/postbacks /api/v1/skan/games/{gameId}/campaigns /api/webhooks /api/webhooks/templates /api/webhooks/{id} /api/webhooks/{id}/analytics /api/webhooks/{id}/deliveries /health /health/live /health/ready /metrics' ;;
    'api|POST'|'api|post') echo '/api/domains /api/domains/{domainId}/check-propagation /api/domains/{domainId}/set-default /api/domains/{domainId}/verify /api/exports/destinations /api/exports/destinations/{id}/run /api/keys /api/keys/test /api/keys/{id}/activate /api/keys/{id}/deactivate /api/keys/{id}/regenerate /api/keys/{id}/revoke /api/safety/lists /api/team/invitations /api/team/invitations/accept /api/use/links /api/use/links/bulk /api/use/links/import /api/use/qr-codes /api/use/smart-links /api/v1/admin/fraud/games/{gameId}/blocklist /api/v1/admin/fraud/games/{gameId}/rules /api/v1/admin/games /api/v1/admin/games/{gameId}/sdk-key /api/v1/gaming/events /api/v1/gaming/gdpr/deletions /api/v1/skan/campaigns/{campaignId}/optimize /api/v1/skan/games/{gameId}/campaigns /api/v1/skan/postbacks /api/webhooks /api/webhooks/bulk /api/webhooks/utilities/generate-signature /api/webhooks/utilities/validate-url /api/webhooks/utilities/verify-signature /api/webhooks/{id}/deliveries/{deliveryId}/retry /api/webhooks/{id}/disable /api/webhooks/{id}/enable /api/webhooks/{id}/rotate-secret /api/webhooks/{id}/suspend /api/webhooks/{id}/test' ;;
    'api|PUT'|'api|put') echo '/api/domains/{domainId}/app-links' ;;
    'api|PATCH'|'api|patch') echo '/api/domains/{domainId} /api/keys/{id} /api/team/members/{id} /api/use/links/{id} /api/use/qr-codes/{id} /api/use/smart-links/{id} /api/v1/admin/fraud/games/{gameId}/events/{eventId} /api/v1/admin/fraud/games/{gameId}/rules/{ruleId} /api/v1/admin/games/{gameId} /api/v1/skan/campaigns/{campaignId} /api/webhooks/{id}' ;;
    'api|DELETE'|'api|delete') echo '/api/domains/{domainId} /api/exports/destinations/{id} /api/keys/{id} /api/safety/lists/{id} /api/team/invitations/{id} /api/team/members/{id} /api/use/links/{id} /api/use/qr-codes/{id} /api/use/smart-links/{id} /api/v1/admin/fraud/games/{gameId}/blocklist/{entryId} /api/v1/admin/fraud/games/{gameId}/rules/{ruleId} /api/webhooks/{id}' ;;
    'api|HEAD'|'api|head') echo '/api/audit-log /api/domains /api/domains/stats /api/domains/{domainId} /api/domains/{domainId}/app-links /api/domains/{domainId}/ssl /api/exports/destinations /api/keys /api/keys/{id} /api/keys/{id}/activity /api/safety/lists /api/safety/lists/{id} /api/team/invitations /api/team/me /api/team/members /api/use /api/use/analytics/clicks /api/use/analytics/clicks/export /api/use/analytics/links/{id} /api/use/links /api/use/links/{id} /api/use/links/{id}/qr /api/use/qr-codes /api/use/qr-codes/{id} /api/use/qr-codes/{id}/image /api/use/smart-links /api/use/smart-links/{id} /api/v1/admin/fraud/games/{gameId}/blocklist /api/v1/admin/fraud/games/{gameId}/dashboard /api/v1/admin/fraud/games/{gameId}/events /api/v1/admin/fraud/games/{gameId}/rules /api/v1/admin/games /api/v1/admin/games/{gameId} /api/v1/analytics/games/{gameId}/attribution /api/v1/analytics/games/{gameId}/events /api/v1/analytics/games/{gameId}/export /api/v1/analytics/games/{gameId}/geography /api/v1/analytics/games/{gameId}/leaderboard /api/v1/analytics/games/{gameId}/overview /api/v1/analytics/games/{gameId}/players /api/v1/analytics/games/{gameId}/players/{playerId} /api/v1/analytics/games/{gameId}/retention /api/v1/analytics/games/{gameId}/revenue /api/v1/analytics/games/{gameId}/segments /api/v1/gaming/analytics/funnel /api/v1/gaming/export /api/v1/gaming/gdpr/deletions /api/v1/gaming/gdpr/deletions/{id} /api/v1/skan/campaigns/{campaignId} /api/v1/skan/campaigns/{campaignId}/postbacks /api/v1/skan/games/{gameId}/campaigns /api/webhooks /api/webhooks/templates /api/webhooks/{id} /api/webhooks/{id}/analytics /api/webhooks/{id}/deliveries /health /health/live /health/ready /metrics' ;;
  esac
}

_linkctl_file_args() {
  case "$1" in
    'links import'|'safety lists add'|'events send') return 0 ;;
  esac
  return 1
}

_linkctl_words() {
  case "$1" in
    '') echo 'login logout profile status whoami keys team links smart-links sl qr domains webhooks safety games events analytics export exports fraud skan gdpr audit api tui dashboard completion help' ;;
    'profile') echo 'list ls use help' ;;
    'keys') echo 'create list ls get update regenerate revoke activate deactivate delete rm test activity help' ;;
    'team') echo 'members list ls invite invitations revoke-invite role remove rm join help' ;;
    'team role') echo 'owner admin member viewer' ;;
    'links') echo 'create list ls get update delete rm open qr share stats clicks import export help' ;;
    'smart-links') echo 'create list ls get update delete rm stats help' ;;
    'qr') echo 'create list ls get update delete rm image help' ;;
    'domains') echo 'add list ls get verify check ssl set-default update app-links delete rm remove stats help' ;;
    'webhooks') echo 'create list ls get update enable disable suspend delete rm rotate-secret test deliveries retry health templates validate-url sign verify listen help' ;;
    'safety') echo 'lists help' ;;
    'safety lists') echo 'list ls add remove rm help' ;;
    'games') echo 'create list ls get update regenerate-key help' ;;
    'events') echo 'send help' ;;
    'analytics') echo 'overview retention funnel leaderboard geography events export revenue attribution segments players player help' ;;
    'export') echo 'events clicks help' ;;
    'exports') echo 'destinations help' ;;
    'exports destinations') echo 'add list ls remove rm run help' ;;
    'fraud') echo 'dashboard events review watch rules blocklist help' ;;
    'fraud review') echo 'pending legitimate fraud' ;;
    'fraud rules') echo 'list ls create update enable disable delete rm help' ;;
    'fraud blocklist') echo 'list ls add remove rm help' ;;
    'skan') echo 'campaigns schema postbacks optimize help' ;;
    'skan campaigns') echo 'list ls create update show get help' ;;
    'skan schema') echo 'edit help' ;;
    'gdpr') echo 'delete status list ls help' ;;
    'api') echo 'GET POST PUT PATCH DELETE HEAD OPTIONS' ;;
    'completion') echo 'bash zsh fish all' ;;
    'help') echo 'login logout profile status whoami keys team links smart-links qr domains webhooks safety games events analytics export exports fraud skan gdpr audit api tui completion exit-codes' ;;
  esac
}

_linkctl_options() {
  case "$1" in
    '') echo '-V --version --url --api-key --profile --json -h --help' ;;
    'login') echo '-h --help --url --api-key --profile' ;;
    'logout') echo '-h --help --url --api-key --profile' ;;
    'profile') echo '-h --help --url --api-key --profile' ;;
    'profile list') echo '--json -h --help --url --api-key --profile' ;;
    'profile use') echo '-h --help --url --api-key --profile' ;;
    'profile help') echo '--url --api-key --profile -h --help' ;;
    'status') echo '--json -h --help --url --api-key --profile' ;;
    'whoami') echo '--json -h --help --url --api-key --profile' ;;
    'keys') echo '-h --help --url --api-key --profile' ;;
    'keys create') echo '--name --description --expires-at --permissions --scope --preset --request-limit --time-period --allowed-ip --allowed-origin --environment --json -h --help --url --api-key --profile' ;;
    'keys list') echo '--status --search --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'keys get') echo '--json -h --help --url --api-key --profile' ;;
    'keys update') echo '--name --description --expires-at --permissions --scope --preset --request-limit --time-period --allowed-ip --allowed-origin --clear-allowed-ips --clear-allowed-origins --json -h --help --url --api-key --profile' ;;
    'keys regenerate') echo '--json -h --help --url --api-key --profile' ;;
    'keys revoke') echo '-y --yes --json -h --help --url --api-key --profile' ;;
    'keys activate') echo '--json -h --help --url --api-key --profile' ;;
    'keys deactivate') echo '-y --yes --json -h --help --url --api-key --profile' ;;
    'keys delete') echo '-y --yes -h --help --url --api-key --profile' ;;
    'keys test') echo '--json -h --help --url --api-key --profile' ;;
    'keys activity') echo '--page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'keys help') echo '--url --api-key --profile -h --help' ;;
    'team') echo '-h --help --url --api-key --profile' ;;
    'team members') echo '--role --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'team invite') echo '--role --json -h --help --url --api-key --profile' ;;
    'team invitations') echo '--status --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'team revoke-invite') echo '-h --help --url --api-key --profile' ;;
    'team role') echo '--json -h --help --url --api-key --profile' ;;
    'team remove') echo '-y --yes -h --help --url --api-key --profile' ;;
    'team join') echo '--name --json -h --help --url --api-key --profile' ;;
    'team help') echo '--url --api-key --profile -h --help' ;;
    'links') echo '-h --help --url --api-key --profile' ;;
    'links create') echo '-d --destination --title --short-code --domain --expires-at --tag --meta --redirect-type --expired-url --max-clicks --starts-at --forward-query --no-forward-query --rule --variant --password-stdin --password-prompt --og-title --og-description --og-image --json -h --help --url --api-key --profile' ;;
    'links list') echo '--search --status --tag --sort --order --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'links get') echo '--json -h --help --url --api-key --profile' ;;
    'links update') echo '-d --destination --title --short-code --expires-at --tag --meta --redirect-type --expired-url --max-clicks --starts-at --forward-query --no-forward-query --rule --variant --password-stdin --password-prompt --og-title --og-description --og-image --no-password --no-og --clear-rules --clear-variants --domain --status --clear-tags --clear-meta --no-expiry --force --json -h --help --url --api-key --profile' ;;
    'links delete') echo '-y --yes -h --help --url --api-key --profile' ;;
    'links open') echo '--print -h --help --url --api-key --profile' ;;
    'links qr') echo '--format -o --output --size -h --help --url --api-key --profile' ;;
    'links share') echo '--no-qr --json -h --help --url --api-key --profile' ;;
    'links stats') echo '--start --end --interval --json -h --help --url --api-key --profile' ;;
    'links clicks') echo '--start --end --json -h --help --url --api-key --profile' ;;
    'links import') echo '--from --dry-run --format --chunk-size --generate-codes --failed-out --skip-existing --json -h --help --url --api-key --profile' ;;
    'links export') echo '--format -o --output --status --tag --search -h --help --url --api-key --profile' ;;
    'links help') echo '--url --api-key --profile -h --help' ;;
    'smart-links') echo '-h --help --url --api-key --profile' ;;
    'smart-links create') echo '--fallback --ios --android --desktop --title --tag --short-code --domain --game --variant --no-click-id --json -h --help --url --api-key --profile' ;;
    'smart-links list') echo '--search --tag --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'smart-links get') echo '--json -h --help --url --api-key --profile' ;;
    'smart-links update') echo '--fallback --ios --android --desktop --title --tag --short-code --domain --game --variant --click-id --no-click-id --no-ios --no-android --no-desktop --no-game --clear-tags --clear-variants --force --json -h --help --url --api-key --profile' ;;
    'smart-links delete') echo '-y --yes -h --help --url --api-key --profile' ;;
    'smart-links stats') echo '--start --end --interval --json -h --help --url --api-key --profile' ;;
    'smart-links help') echo '--url --api-key --profile -h --help' ;;
    'qr') echo '-h --help --url --api-key --profile' ;;
    'qr create') echo '--title --foreground --background --error-correction --margin --logo --json -h --help --url --api-key --profile' ;;
    'qr list') echo '--link --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'qr get') echo '--json -h --help --url --api-key --profile' ;;
    'qr update') echo '--title --foreground --background --error-correction --margin --logo --no-logo --json -h --help --url --api-key --profile' ;;
    'qr delete') echo '-y --yes -h --help --url --api-key --profile' ;;
    'qr image') echo '--format -o --output --size -h --help --url --api-key --profile' ;;
    'qr help') echo '--url --api-key --profile -h --help' ;;
    'domains') echo '-h --help --url --api-key --profile' ;;
    'domains add') echo '--method --json -h --help --url --api-key --profile' ;;
    'domains list') echo '--page --limit --all --status --columns --json -h --help --url --api-key --profile' ;;
    'domains get') echo '--json -h --help --url --api-key --profile' ;;
    'domains verify') echo '--json -h --help --url --api-key --profile' ;;
    'domains check') echo '--json -h --help --url --api-key --profile' ;;
    'domains ssl') echo '--json -h --help --url --api-key --profile' ;;
    'domains set-default') echo '--json -h --help --url --api-key --profile' ;;
    'domains update') echo '--default --no-default --root-redirect --method --json -h --help --url --api-key --profile' ;;
    'domains app-links') echo '--ios-app-id --ios-path --android-package --android-fingerprint --clear-ios --clear-android --json -h --help --url --api-key --profile' ;;
    'domains delete') echo '-y --yes -h --help --url --api-key --profile' ;;
    'domains stats') echo '--json -h --help --url --api-key --profile' ;;
    'domains help') echo '--url --api-key --profile -h --help' ;;
    'webhooks') echo '-h --help --url --api-key --profile' ;;
    'webhooks create') echo '--name --description --event --retry-policy --max-retries --timeout --header --format --template --json -h --help --url --api-key --profile' ;;
    'webhooks list') echo '--status --event --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'webhooks get') echo '--json -h --help --url --api-key --profile' ;;
    'webhooks update') echo '--name --endpoint --description --event --retry-policy --max-retries --timeout --header --format --clear-headers --json -h --help --url --api-key --profile' ;;
    'webhooks enable') echo '--json -h --help --url --api-key --profile' ;;
    'webhooks disable') echo '--json -h --help --url --api-key --profile' ;;
    'webhooks suspend') echo '--json -h --help --url --api-key --profile' ;;
    'webhooks delete') echo '-y --yes --json -h --help --url --api-key --profile' ;;
    'webhooks rotate-secret') echo '--json -h --help --url --api-key --profile' ;;
    'webhooks test') echo '--event --json -h --help --url --api-key --profile' ;;
    'webhooks deliveries') echo '--status --event --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'webhooks retry') echo '--json -h --help --url --api-key --profile' ;;
    'webhooks health') echo '--json -h --help --url --api-key --profile' ;;
    'webhooks templates') echo '--page --limit --all --json -h --help --url --api-key --profile' ;;
    'webhooks validate-url') echo '--json -h --help --url --api-key --profile' ;;
    'webhooks sign') echo '--secret --timestamp --remote --payload --payload-file --json -h --help --url --api-key --profile' ;;
    'webhooks verify') echo '--secret --signature --timestamp --tolerance --remote --payload --payload-file --json -h --help --url --api-key --profile' ;;
    'webhooks listen') echo '--port --host --secret --tolerance --forward-to --event --receiver-url --json -h --help --url --api-key --profile' ;;
    'webhooks help') echo '--url --api-key --profile -h --help' ;;
    'safety') echo '-h --help --url --api-key --profile' ;;
    'safety lists') echo '-h --help --url --api-key --profile' ;;
    'safety lists list') echo '--page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'safety lists add') echo '--name --format --json -h --help --url --api-key --profile' ;;
    'safety lists remove') echo '-y --yes -h --help --url --api-key --profile' ;;
    'safety lists help') echo '--url --api-key --profile -h --help' ;;
    'safety help') echo '--url --api-key --profile -h --help' ;;
    'games') echo '-h --help --url --api-key --profile' ;;
    'games create') echo '--name --platform --slug --status --analytics --no-analytics --fraud --no-fraud --skan --no-skan --raw-retention-days --compacted-retention-months --hmac --no-hmac --replay-window --attribution-window --currency --whale --dolphin --json -h --help --url --api-key --profile' ;;
    'games list') echo '--status --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'games get') echo '--json -h --help --url --api-key --profile' ;;
    'games update') echo '--name --status --analytics --no-analytics --fraud --no-fraud --skan --no-skan --raw-retention-days --compacted-retention-months --hmac --no-hmac --replay-window --attribution-window --currency --whale --dolphin --json -h --help --url --api-key --profile' ;;
    'games regenerate-key') echo '--json -h --help --url --api-key --profile' ;;
    'games help') echo '--url --api-key --profile -h --help' ;;
    'events') echo '-h --help --url --api-key --profile' ;;
    'events send') echo '--game --org --sdk-key --signing-secret --gzip --json -h --help --url --api-key --profile' ;;
    'events help') echo '--url --api-key --profile -h --help' ;;
    'analytics') echo '-h --help --url --api-key --profile' ;;
    'analytics overview') echo '--start-date --end-date --json -h --help --url --api-key --profile' ;;
    'analytics retention') echo '--start-date --end-date --json --granularity --group-by --return-event -h --help --url --api-key --profile' ;;
    'analytics funnel') echo '--start-date --end-date --json --steps --window --group-by -h --help --url --api-key --profile' ;;
    'analytics leaderboard') echo '--start-date --end-date --json --limit -h --help --url --api-key --profile' ;;
    'analytics geography') echo '--start-date --end-date --json -h --help --url --api-key --profile' ;;
    'analytics events') echo '--start-date --end-date --json -h --help --url --api-key --profile' ;;
    'analytics export') echo '--json --type --format -o --output --limit --group-by --granularity --start-date --end-date -h --help --url --api-key --profile' ;;
    'analytics revenue') echo '--group-by --start-date --end-date --json -h --help --url --api-key --profile' ;;
    'analytics attribution') echo '--group-by --start-date --end-date --json -h --help --url --api-key --profile' ;;
    'analytics segments') echo '--json -h --help --url --api-key --profile' ;;
    'analytics players') echo '--search --platform --country --segment --min-revenue --active-from --active-to --sort --order --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'analytics player') echo '--page --limit --all --json -h --help --url --api-key --profile' ;;
    'analytics help') echo '--url --api-key --profile -h --help' ;;
    'export') echo '-h --help --url --api-key --profile' ;;
    'export events') echo '--json --start-date --end-date --format -o --output -h --help --url --api-key --profile' ;;
    'export clicks') echo '--json --start-date --end-date --format -o --output --link -h --help --url --api-key --profile' ;;
    'export help') echo '--url --api-key --profile -h --help' ;;
    'exports') echo '-h --help --url --api-key --profile' ;;
    'exports destinations') echo '-h --help --url --api-key --profile' ;;
    'exports destinations add') echo '--json --bucket --datasets --endpoint --prefix --region --access-key-id --secret-access-key --format --game -h --help --url --api-key --profile' ;;
    'exports destinations list') echo '--page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'exports destinations remove') echo '--json -y --yes -h --help --url --api-key --profile' ;;
    'exports destinations run') echo '--json --date -h --help --url --api-key --profile' ;;
    'exports destinations help') echo '--url --api-key --profile -h --help' ;;
    'exports help') echo '--url --api-key --profile -h --help' ;;
    'fraud') echo '-h --help --url --api-key --profile' ;;
    'fraud dashboard') echo '--start-date --end-date --json -h --help --url --api-key --profile' ;;
    'fraud events') echo '--threat --status --player --start-date --end-date --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'fraud review') echo '--json -h --help --url --api-key --profile' ;;
    'fraud watch') echo '--interval --json -h --help --url --api-key --profile' ;;
    'fraud rules') echo '-h --help --url --api-key --profile' ;;
    'fraud rules list') echo '--page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'fraud rules create') echo '--name --action --field --operator --value --priority --cooldown --disabled --json -h --help --url --api-key --profile' ;;
    'fraud rules update') echo '--name --action --field --operator --value --priority --cooldown --json -h --help --url --api-key --profile' ;;
    'fraud rules enable') echo '--json -h --help --url --api-key --profile' ;;
    'fraud rules disable') echo '--json -h --help --url --api-key --profile' ;;
    'fraud rules delete') echo '-y --yes -h --help --url --api-key --profile' ;;
    'fraud rules help') echo '--url --api-key --profile -h --help' ;;
    'fraud blocklist') echo '-h --help --url --api-key --profile' ;;
    'fraud blocklist list') echo '--page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'fraud blocklist add') echo '--type --reason --json -h --help --url --api-key --profile' ;;
    'fraud blocklist remove') echo '-y --yes -h --help --url --api-key --profile' ;;
    'fraud blocklist help') echo '--url --api-key --profile -h --help' ;;
    'fraud help') echo '--url --api-key --profile -h --help' ;;
    'skan') echo '-h --help --url --api-key --profile' ;;
    'skan campaigns') echo '-h --help --url --api-key --profile' ;;
    'skan campaigns list') echo '--page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'skan campaigns create') echo '--name --ad-network --affiliate --source-id --lock-window --schema --json -h --help --url --api-key --profile' ;;
    'skan campaigns update') echo '--name --ad-network --affiliate --source-id --lock-window --schema --json -h --help --url --api-key --profile' ;;
    'skan campaigns show') echo '--json -h --help --url --api-key --profile' ;;
    'skan campaigns help') echo '--url --api-key --profile -h --help' ;;
    'skan schema') echo '-h --help --url --api-key --profile' ;;
    'skan schema edit') echo '--json -h --help --url --api-key --profile' ;;
    'skan schema help') echo '--url --api-key --profile -h --help' ;;
    'skan postbacks') echo '--page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'skan optimize') echo '--apply -y --yes --json -h --help --url --api-key --profile' ;;
    'skan help') echo '--url --api-key --profile -h --help' ;;
    'gdpr') echo '-h --help --url --api-key --profile' ;;
    'gdpr delete') echo '--game --player --reason --confirm --json -h --help --url --api-key --profile' ;;
    'gdpr status') echo '--json -h --help --url --api-key --profile' ;;
    'gdpr list') echo '--game --status --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'gdpr help') echo '--url --api-key --profile -h --help' ;;
    'audit') echo '--member --action --resource-type --since --until --page --limit --all --columns --json -h --help --url --api-key --profile' ;;
    'api') echo '-F --field -f --raw-field -H --header --input -i --include --silent -h --help --url --api-key --profile' ;;
    'tui') echo '--refresh -h --help --url --api-key --profile' ;;
    'completion') echo '--write --dir -h --help --url --api-key --profile' ;;
    'help') echo '-h --help --url --api-key --profile' ;;
  esac
}

_linkctl_values() {
  case "$1|$2" in
    'keys create|--scope') echo 'links:read links:write links:delete analytics:read qrCodes:read qrCodes:write qrCodes:delete domains:read domains:write domains:delete webhooks:read webhooks:write smartLinks:read smartLinks:write smartLinks:delete keys:read keys:write games:read games:write fraud:read fraud:write skan:read skan:write gdpr:read gdpr:write team:read team:write safety:read safety:write exports:read exports:write qr:read qr:write qr:delete' ;;
    'keys create|--preset') echo 'read-only full analytics-only' ;;
    'keys create|--time-period') echo 'minute hour day' ;;
    'keys create|--environment') echo 'live test' ;;
    'keys list|--status') echo 'active inactive revoked expired' ;;
    'keys update|--scope') echo 'links:read links:write links:delete analytics:read qrCodes:read qrCodes:write qrCodes:delete domains:read domains:write domains:delete webhooks:read webhooks:write smartLinks:read smartLinks:write smartLinks:delete keys:read keys:write games:read games:write fraud:read fraud:write skan:read skan:write gdpr:read gdpr:write team:read team:write safety:read safety:write exports:read exports:write qr:read qr:write qr:delete' ;;
    'keys update|--preset') echo 'read-only full analytics-only' ;;
    'keys update|--time-period') echo 'minute hour day' ;;
    'team members|--role') echo 'owner admin member viewer' ;;
    'team invite|--role') echo 'owner admin member viewer' ;;
    'team invitations|--status') echo 'pending accepted revoked expired' ;;
    'links create|--redirect-type') echo '301 302 307 308' ;;
    'links list|--status') echo 'active inactive expired' ;;
    'links list|--sort') echo 'createdAt clicks' ;;
    'links list|--order') echo 'asc desc' ;;
    'links update|--redirect-type') echo '301 302 307 308' ;;
    'links update|--status') echo 'active inactive' ;;
    'links qr|--format') echo 'svg png' ;;
    'links qr|-o'|'links qr|--output') echo '__files' ;;
    'links stats|--interval') echo 'hour day week' ;;
    'links import|--from') echo 'linkd bitly shlink yourls kutt' ;;
    'links import|--format') echo 'csv jsonl' ;;
    'links import|--failed-out') echo '__files' ;;
    'links export|--format') echo 'csv json' ;;
    'links export|-o'|'links export|--output') echo '__files' ;;
    'links export|--status') echo 'active inactive expired' ;;
    'smart-links stats|--interval') echo 'hour day week' ;;
    'qr create|--error-correction') echo 'L M Q H' ;;
    'qr create|--logo') echo '__files' ;;
    'qr update|--error-correction') echo 'L M Q H' ;;
    'qr update|--logo') echo '__files' ;;
    'qr image|--format') echo 'svg png' ;;
    'qr image|-o'|'qr image|--output') echo '__files' ;;
    'domains add|--method') echo 'dns file' ;;
    'domains list|--status') echo 'pending verified failed' ;;
    'domains update|--method') echo 'dns file' ;;
    'webhooks create|--retry-policy') echo 'exponential linear immediate none' ;;
    'webhooks create|--format') echo 'json slack discord' ;;
    'webhooks create|--template') echo 'team-chat community-chat analytics team-notifications domain-management all-events' ;;
    'webhooks list|--status') echo 'active disabled suspended' ;;
    'webhooks list|--event') echo 'link.created link.updated link.deleted link.clicked link.password_locked link.flagged qr_code.created qr_code.scanned domain.created domain.verified domain.deleted api_key.created api_key.revoked team.member_added team.member_removed' ;;
    'webhooks update|--retry-policy') echo 'exponential linear immediate none' ;;
    'webhooks update|--format') echo 'json slack discord' ;;
    'webhooks test|--event') echo 'link.created link.updated link.deleted link.clicked link.password_locked link.flagged qr_code.created qr_code.scanned domain.created domain.verified domain.deleted api_key.created api_key.revoked team.member_added team.member_removed' ;;
    'webhooks deliveries|--status') echo 'pending success failed' ;;
    'webhooks deliveries|--event') echo 'link.created link.updated link.deleted link.clicked link.password_locked link.flagged qr_code.created qr_code.scanned domain.created domain.verified domain.deleted api_key.created api_key.revoked team.member_added team.member_removed' ;;
    'webhooks sign|--payload-file') echo '__files' ;;
    'webhooks verify|--payload-file') echo '__files' ;;
    'safety lists add|--format') echo 'hosts domains urlhaus' ;;
    'games create|--platform') echo 'ios android web steam playstation xbox switch epic discord unity' ;;
    'games create|--status') echo 'active paused archived' ;;
    'games list|--status') echo 'active paused archived' ;;
    'games update|--status') echo 'active paused archived' ;;
    'analytics retention|--granularity') echo 'day week' ;;
    'analytics retention|--group-by') echo 'platform source campaign link country' ;;
    'analytics funnel|--window') echo '1h 1d 7d 30d' ;;
    'analytics funnel|--group-by') echo 'platform source campaign link country' ;;
    'analytics export|--type') echo 'overview retention revenue attribution segments players geography events' ;;
    'analytics export|--format') echo 'csv json' ;;
    'analytics export|-o'|'analytics export|--output') echo '__files' ;;
    'analytics export|--group-by') echo 'day week month platform source affiliate campaign medium link' ;;
    'analytics export|--granularity') echo 'day week' ;;
    'analytics revenue|--group-by') echo 'day week month platform source' ;;
    'analytics attribution|--group-by') echo 'affiliate campaign source medium link' ;;
    'analytics players|--platform') echo 'ios android web steam playstation xbox switch epic discord unity' ;;
    'analytics players|--segment') echo 'whale dolphin minnow free' ;;
    'analytics players|--sort') echo 'revenue sessions lastActive' ;;
    'analytics players|--order') echo 'asc desc' ;;
    'export events|--format') echo 'ndjson csv parquet' ;;
    'export events|-o'|'export events|--output') echo '__files' ;;
    'export clicks|--format') echo 'ndjson csv parquet' ;;
    'export clicks|-o'|'export clicks|--output') echo '__files' ;;
    'exports destinations add|--format') echo 'ndjson csv parquet' ;;
    'fraud events|--threat') echo 'click_injection bot_detection device_farm rate_limit emulator pattern_anomaly revenue_anomaly' ;;
    'fraud events|--status') echo 'blocked detected logged' ;;
    'fraud rules create|--action') echo 'block flag log' ;;
    'fraud rules create|--operator') echo 'eq ne gt lt gte lte contains in' ;;
    'fraud rules update|--action') echo 'block flag log' ;;
    'fraud rules update|--operator') echo 'eq ne gt lt gte lte contains in' ;;
    'fraud blocklist add|--type') echo 'ip device' ;;
    'skan campaigns create|--schema') echo '__files' ;;
    'skan campaigns update|--schema') echo '__files' ;;
    'gdpr list|--status') echo 'queued processing completed' ;;
    'api|--input') echo '__files' ;;
    'completion|--dir') echo '__dirs' ;;
  esac
}

# File (-f) or directory (-d) names, one a word, quoted and a directory with its / (filenames).
_linkctl_files() {
  local IFS=$'\n'
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen "$1" -- "$cur"))
}

_linkctl() {
  local cur prev cmdpath="" next w i first="" nargs=0
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then _get_comp_words_by_ref -n : cur prev; fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    if [[ "$w" == -* ]]; then
      _linkctl_takes_value "$cmdpath" "$w" && ((i++))
      continue
    fi
    next="$(_linkctl_descend "$cmdpath" "$w")"
    if [[ -n "$next" ]]; then
      cmdpath="$next" first="" nargs=0
    else
      ((nargs++ == 0)) && first="$w"
    fi
  done
  COMPREPLY=()
  if [[ "$prev" == -* ]] && _linkctl_takes_value "$cmdpath" "$prev"; then
    local values
    values="$(_linkctl_values "$cmdpath" "$prev")"
    case "$values" in
      __files) _linkctl_files -f ;;
      __dirs) _linkctl_files -d ;;
      *) COMPREPLY=($(compgen -W "$values" -- "$cur")) ;;
    esac
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_linkctl_options "$cmdpath")" -- "$cur"))
  elif ((nargs > 0)) && _linkctl_has_second "$cmdpath"; then
    # The second argument's words follow the first (api GET: its paths); none after it.
    ((nargs == 1)) && COMPREPLY=($(compgen -W "$(_linkctl_second "$cmdpath" "$first")" -- "$cur"))
  elif _linkctl_file_args "$cmdpath"; then
    _linkctl_files -f
  else
    COMPREPLY=($(compgen -W "$(_linkctl_words "$cmdpath")" -- "$cur"))
  fi
  if declare -F __ltrim_colon_completions >/dev/null 2>&1; then __ltrim_colon_completions "$cur"; fi
}

complete -F _linkctl linkctl
