/** The settings table: each setting's environment variable, command-line flag and description. */

/**
 * Every setting: its environment variable, flag and description (the table in docs/operations.md
 * mirrors it). Each key is one of Config's: config.ts coerces values by these keys, so tsc rejects
 * any other (this file imports nothing from config.ts, which reads it).
 */
export const SETTINGS = [
  { key: 'host', env: 'LINKD_HOST', flag: '--host', doc: 'Listen address (default 127.0.0.1)' },
  {
    key: 'port',
    env: 'LINKD_PORT',
    flag: '--port',
    doc: 'Listen port (default 8080; 0 picks a free port; a port browsers block only behind a proxy)',
  },
  { key: 'dataDir', env: 'LINKD_DATA_DIR', flag: '--data-dir', doc: 'Data directory (default ./data)' },
  {
    key: 'publicUrl',
    env: 'LINKD_PUBLIC_URL',
    flag: '--public-url',
    doc: 'Public base URL (default http://HOST:PORT)',
  },
  {
    key: 'shortDomain',
    env: 'LINKD_SHORT_DOMAIN',
    flag: '--short-domain',
    doc: 'Shared short-link host (default host of the public URL)',
  },
  {
    key: 'databaseUrl',
    env: 'LINKD_DATABASE_URL',
    flag: '--database-url',
    doc: 'Database: sqlite:PATH (default sqlite:DATA_DIR/linkd.db) or postgres://USER[:PASSWORD]@HOST:PORT/DB (PostgreSQL 15+, for several processes; the password may also come from PGPASSWORD and is never printed)',
  },
  {
    key: 'secretKey',
    env: 'LINKD_SECRET_KEY',
    flag: '--secret-key',
    doc: 'Master key for secrets at rest (64 hex chars or base64 of 32 bytes); generated into DATA_DIR/secret.key when unset',
  },
  {
    key: 'logLevel',
    env: 'LINKD_LOG_LEVEL',
    flag: '--log-level',
    doc: 'Log level: fatal, error, warn, info, debug, trace or silent (default info)',
  },
  {
    key: 'logFormat',
    env: 'LINKD_LOG_FORMAT',
    flag: '--log-format',
    doc: 'auto|json|pretty: readable lines on a terminal, JSON lines otherwise (default auto)',
  },
  {
    key: 'trustProxy',
    env: 'LINKD_TRUST_PROXY',
    flag: '--trust-proxy',
    doc: 'Trust X-Forwarded-For from: a comma list of proxy IPs/CIDRs (recommended), a hop count (at most 255), or true (anyone: only on a private network) (default false)',
  },
  {
    key: 'defaultPlan',
    env: 'LINKD_DEFAULT_PLAN',
    flag: '--default-plan',
    doc: 'Plan of new organizations (default enterprise)',
  },
  {
    key: 'rateLimitPerIp',
    env: 'LINKD_RATE_LIMIT_PER_IP',
    flag: '--rate-limit-per-ip',
    doc: 'Requests per minute per client IP (default 3000, at most 10000000)',
  },
  {
    key: 'rateLimitPerOrg',
    env: 'LINKD_RATE_LIMIT_PER_ORG',
    flag: '--rate-limit-per-org',
    doc: 'Requests per minute per organization (default 30000, at most 10000000)',
  },
  {
    key: 'rateLimitPerMember',
    env: 'LINKD_RATE_LIMIT_PER_MEMBER',
    flag: '--rate-limit-per-member',
    doc: 'Requests per minute per team member, all its keys together (default 6000, at most 10000000)',
  },
  {
    key: 'rateLimitRedirectsPerIp',
    env: 'LINKD_RATE_LIMIT_REDIRECTS_PER_IP',
    flag: '--rate-limit-redirects-per-ip',
    doc: 'Short-link redirects per minute per client IP (default 60000, at most 10000000)',
  },
  {
    key: 'ingestRateLimitPerClient',
    env: 'LINKD_INGEST_RATE_LIMIT_PER_CLIENT',
    flag: '--ingest-rate-limit-per-client',
    doc: 'Gaming ingestion requests per minute per game and client address (default 1000, at most 10000000)',
  },
  {
    key: 'ingestRateLimitPerGame',
    env: 'LINKD_INGEST_RATE_LIMIT_PER_GAME',
    flag: '--ingest-rate-limit-per-game',
    doc: 'Gaming ingestion requests per minute per game from all addresses: the server guard (default 60000, at most 10000000)',
  },
  {
    key: 'ingestQueueMax',
    env: 'LINKD_INGEST_QUEUE_MAX',
    flag: '--ingest-queue-max',
    doc: 'Events of gaming batches waiting to be stored; beyond it ingestion answers 503 (default 50000, at most 1000000)',
  },
  {
    key: 'bodyLimitBytes',
    env: 'LINKD_BODY_LIMIT',
    flag: '--body-limit-bytes',
    doc: 'Largest accepted request body in bytes (default 1048576, at most 104857600)',
  },
  {
    key: 'shutdownTimeoutMs',
    env: 'LINKD_SHUTDOWN_TIMEOUT_MS',
    flag: '--shutdown-timeout-ms',
    doc: 'Graceful shutdown bound (default 10000)',
  },
  {
    key: 'jobs',
    env: 'LINKD_JOBS',
    flag: '--jobs',
    doc: 'Run the scheduled jobs in this process (default true)',
  },
  {
    key: 'geoCityDb',
    env: 'LINKD_GEO_CITY_DB',
    flag: '--geo-city-db',
    doc: 'Optional MaxMind-format city database (.mmdb) giving clicks a region and city (default none: country only)',
  },
  {
    key: 'webhookAllowPrivateNetworks',
    env: 'LINKD_WEBHOOK_ALLOW_PRIVATE_NETWORKS',
    flag: '--webhook-allow-private-networks',
    doc: 'Let webhooks reach private, link-local and other non-public addresses (receivers on your LAN), and loopback through any host name while loopback is allowed; default false: only public addresses, plus loopback for localhost and loopback literals',
  },
  {
    key: 'webhookAllowLoopback',
    env: 'LINKD_WEBHOOK_ALLOW_LOOPBACK',
    flag: '--webhook-allow-loopback',
    doc: 'Let webhooks reach this machine (localhost, 127.0.0.0/8, ::1 in any spelling), e.g. linkctl webhooks listen (default true); set false when several organizations share a server',
  },
  {
    key: 'webhookConcurrency',
    env: 'LINKD_WEBHOOK_CONCURRENCY',
    flag: '--webhook-concurrency',
    doc: 'Webhook delivery attempts in flight at once in this process (default 64)',
  },
  {
    key: 'webhookConcurrencyPerOrg',
    env: 'LINKD_WEBHOOK_CONCURRENCY_PER_ORG',
    flag: '--webhook-concurrency-per-org',
    doc: "Webhook delivery attempts in flight at once per organization (its fair share: one organization's slow receivers cannot delay the others; default 16)",
  },
  {
    key: 'dnsResolvers',
    env: 'LINKD_DNS_RESOLVERS',
    flag: '--dns-resolvers',
    doc: "DNS servers (comma list of ip[:port]) that must all see a custom domain's records before it is verified (default 1.1.1.1,8.8.8.8,9.9.9.9)",
  },
  {
    key: 'cnameTarget',
    env: 'LINKD_CNAME_TARGET',
    flag: '--cname-target',
    doc: 'Host custom subdomains point their CNAME at (default the short domain without its port)',
  },
  {
    key: 'aRecordIp',
    env: 'LINKD_A_RECORD_IP',
    flag: '--a-record-ip',
    doc: 'Public IPv4 address apex custom domains point their A record at (default none: apex domains cannot be added)',
  },
  {
    key: 'acmeDirectory',
    env: 'LINKD_ACME_DIRECTORY',
    flag: '--acme-directory',
    doc: "ACME directory URL certificates are ordered from (default Let's Encrypt); off disables certificates",
  },
  {
    key: 'acmeEmail',
    env: 'LINKD_ACME_EMAIL',
    flag: '--acme-email',
    doc: 'Contact e-mail of the ACME account (optional; expiry notices from the CA)',
  },
  {
    key: 'acmeCaFile',
    env: 'LINKD_ACME_CA_FILE',
    flag: '--acme-ca-file',
    doc: 'Extra CA certificate (PEM file) to trust for the ACME directory, for a private or test CA',
  },
  {
    key: 'acmePrecheck',
    env: 'LINKD_ACME_PRECHECK',
    flag: '--acme-precheck',
    doc: 'Fetch the HTTP-01 challenge itself before asking the CA to validate it (default true)',
  },
  {
    key: 'httpsPort',
    env: 'LINKD_HTTPS_PORT',
    flag: '--https-port',
    doc: 'Port of the HTTPS listener serving custom domains by SNI, e.g. 443 (default none: no HTTPS listener)',
  },
  {
    key: 'skanHeldMax',
    env: 'LINKD_SKAN_HELD_MAX',
    flag: '--skan-held-max',
    doc: 'SKAN postbacks kept that anyone could have posted (unverified, or matching no campaign); the oldest are dropped beyond it (default 10000, at most 1000000)',
  },
  {
    key: 'skanHeldMaxBytes',
    env: 'LINKD_SKAN_HELD_MAX_BYTES',
    flag: '--skan-held-max-bytes',
    doc: 'Bytes (stored JSON) of those postbacks; the oldest are dropped beyond it (default 16777216, at most 1073741824)',
  },
  {
    key: 'connectionsPerIp',
    env: 'LINKD_CONNECTIONS_PER_IP',
    flag: '--connections-per-ip',
    doc: "Open connections at most per client address (IPv6: per /64), HTTP and HTTPS together; more are closed at once. The socket's address; a trusted proxy's (LINKD_TRUST_PROXY) are not capped (default 256, at most 65535)",
  },
  {
    key: 'headersTimeoutMs',
    env: 'LINKD_HEADERS_TIMEOUT_MS',
    flag: '--headers-timeout-ms',
    doc: 'A connection whose request headers (or TLS handshake) are not complete this long after it began is closed, with 408 (default 10000)',
  },
  {
    key: 'gamingEnabled',
    env: 'NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED',
    flag: '--gaming-intelligence-enabled',
    doc: 'Gaming Intelligence (games, ingestion, analytics, fraud, SKAN, GDPR): false removes its routes (404), its OpenAPI paths and its jobs; its data is kept and comes back with true (default true)',
  },
  {
    key: 'metricsToken',
    env: 'LINKD_METRICS_TOKEN',
    flag: '--metrics-token',
    doc: 'Bearer token (16+ characters) GET /metrics then requires from every client, loopback included; unset: loopback clients only, no token',
  },
] as const satisfies ReadonlyArray<{ key: string; env: string; flag: string; doc: string }>
