import Type, { type Static } from 'typebox'
import { Nullable, PageQuery, StringEnum, Timestamp } from './common.js'
import { ForceShortUrlChange, PlatformShare } from './smart-links.js'
import { LinkVariant, Variants } from './variants.js'
import { LinkFlagged } from './safety.js'
import { DAY_PATTERN, HTTP_URL_PATTERN, PlainText, SLUG_PATTERN } from './text.js'
import {
  ANALYTICS_INTERVALS,
  IMPORT_LIMITS,
  IMPORT_SOURCES,
  LINK_LIMITS,
  LINK_RULE_LIMITS,
  LINK_SORT_FIELDS,
  LINK_STATUSES,
  QR_FORMATS,
  REDIRECT_TYPES,
  RULE_CONDITION_TYPES,
  SORT_ORDERS,
} from './limits.js'

const DestinationUrl = Type.String({
  minLength: 1,
  maxLength: LINK_LIMITS.destinationUrlMax,
  pattern: HTTP_URL_PATTERN,
  description: 'http:// or https:// URL, up to 2,048 characters',
})
const Title = PlainText({ maxLength: LINK_LIMITS.titleMax })
const Slug = Type.String({
  minLength: LINK_LIMITS.slugMin,
  maxLength: LINK_LIMITS.slugMax,
  pattern: SLUG_PATTERN,
  description: 'Letters, digits, hyphens and underscores',
})
const Tags = Type.Array(PlainText({ minLength: 1, maxLength: LINK_LIMITS.tagMax }), {
  maxItems: LINK_LIMITS.tagsMax,
})
const Metadata = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Arbitrary key-value pairs (up to 50 keys, 10 KB as JSON)',
})
const ExpiredUrl = Type.String({
  minLength: 1,
  maxLength: LINK_LIMITS.destinationUrlMax,
  pattern: HTTP_URL_PATTERN,
  description: 'Where an expired link (by expiresAt or maxClicks) redirects (302) instead of answering 410',
})
const MaxClicks = Type.Integer({
  minimum: LINK_RULE_LIMITS.maxClicksMin,
  maximum: LINK_RULE_LIMITS.maxClicksMax,
  description: 'After this many human clicks the link is expired (bots never count)',
})
const StartsAt = Type.String({
  format: 'date-time',
  description: 'Before this time the short URL answers 404 as if unknown',
})
const ForwardQuery = Type.Boolean({
  description:
    "Merge the visitor's query string into the destination (the visitor's value wins; `qr` is never forwarded). Default true",
})
export const RuleCondition = Type.Object(
  {
    type: StringEnum(RULE_CONDITION_TYPES),
    value: Type.String({
      minLength: 1,
      maxLength: LINK_RULE_LIMITS.valueMax,
      description:
        'device: desktop|mobile|tablet; os: ios|android|windows|macos|linux; country: ISO 3166-1 alpha-2; language: a primary tag (en); query: name=value',
    }),
  },
  { additionalProperties: false },
)
export const LinkRule = Type.Object(
  {
    conditions: Type.Array(RuleCondition, {
      minItems: LINK_RULE_LIMITS.conditionsMin,
      maxItems: LINK_RULE_LIMITS.conditionsMax,
      description: 'All must hold',
    }),
    destinationUrl: DestinationUrl,
  },
  { additionalProperties: false },
)
export type LinkRule = Static<typeof LinkRule>
const Rules = Type.Array(LinkRule, {
  maxItems: LINK_RULE_LIMITS.rulesMax,
  description:
    'The first rule whose conditions all hold picks the destination, else destinationUrl; null or [] clears',
})
const Password = Type.String({
  minLength: LINK_RULE_LIMITS.passwordMin,
  maxLength: LINK_RULE_LIMITS.passwordMax,
  description:
    'Write-only: a visit gets a password form instead of the redirect (the link shows passwordProtected)',
})
export const LinkOgInput = Type.Object(
  {
    title: Type.Optional(Nullable(PlainText({ maxLength: LINK_RULE_LIMITS.ogTitleMax }))),
    description: Type.Optional(Nullable(PlainText({ maxLength: LINK_RULE_LIMITS.ogDescriptionMax }))),
    imageUrl: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: LINK_RULE_LIMITS.ogImageUrlMax,
          pattern: HTTP_URL_PATTERN,
          description: 'http:// or https:// URL of the preview image',
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Open Graph tags that link-preview crawlers (Slack, X, Facebook…) get instead of the redirect',
  },
)
export type LinkOgInput = Static<typeof LinkOgInput>
export const LinkOg = Type.Object({
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  imageUrl: Nullable(Type.String()),
})
export type LinkOg = Static<typeof LinkOg>
const ShortCodeChange = Type.String({
  minLength: LINK_LIMITS.slugMin,
  maxLength: LINK_LIMITS.slugMax,
  pattern: SLUG_PATTERN,
  description:
    'A new short code (409 when taken on the domain, or when the current short URL is in use without `force`); the old short URL then answers 404',
})

const RedirectType = Type.Integer({ enum: [...REDIRECT_TYPES], description: 'HTTP status of the redirect' })

export const CreateLinkBody = Type.Object(
  {
    destinationUrl: DestinationUrl,
    title: Type.Optional(Title),
    customSlug: Type.Optional(Slug),
    expiresAt: Type.Optional(Nullable(Timestamp)),
    tags: Type.Optional(Tags),
    metadata: Type.Optional(Metadata),
    redirectType: Type.Optional(RedirectType),
    customDomainId: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    domain: Type.Optional(
      Type.String({
        maxLength: 253,
        description: 'A verified custom domain by name (instead of customDomainId)',
      }),
    ),
    expiredUrl: Type.Optional(Nullable(ExpiredUrl)),
    maxClicks: Type.Optional(Nullable(MaxClicks)),
    startsAt: Type.Optional(Nullable(StartsAt)),
    forwardQuery: Type.Optional(ForwardQuery),
    rules: Type.Optional(Nullable(Rules)),
    variants: Type.Optional(Nullable(Variants)),
    password: Type.Optional(Password),
    og: Type.Optional(Nullable(LinkOgInput)),
  },
  { additionalProperties: false },
)
export type CreateLinkBody = Static<typeof CreateLinkBody>

export const UpdateLinkBody = Type.Object(
  {
    destinationUrl: Type.Optional(DestinationUrl),
    title: Type.Optional(Nullable(Title)),
    status: Type.Optional(StringEnum(['active', 'inactive'] as const)),
    expiresAt: Type.Optional(Nullable(Timestamp)),
    tags: Type.Optional(Tags),
    metadata: Type.Optional(Metadata),
    redirectType: Type.Optional(RedirectType),
    expiredUrl: Type.Optional(Nullable(ExpiredUrl)),
    maxClicks: Type.Optional(Nullable(MaxClicks)),
    startsAt: Type.Optional(Nullable(StartsAt)),
    forwardQuery: Type.Optional(ForwardQuery),
    rules: Type.Optional(Nullable(Rules)),
    variants: Type.Optional(Nullable(Variants)),
    password: Type.Optional(Nullable(Password)),
    og: Type.Optional(Nullable(LinkOgInput)),
    shortCode: Type.Optional(ShortCodeChange),
    customDomainId: Type.Optional(
      Nullable(Type.String({ maxLength: 100, description: 'Move the link (null: the shared domain)' })),
    ),
    force: Type.Optional(ForceShortUrlChange),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateLinkBody = Static<typeof UpdateLinkBody>

export const Link = Type.Object(
  {
    id: Type.String(),
    shortUrl: Type.String(),
    shortCode: Type.String(),
    destinationUrl: Type.String(),
    title: Nullable(Type.String()),
    status: StringEnum(LINK_STATUSES),
    clicks: Type.Integer({ description: 'Human clicks (bots and link previews excluded)' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    tags: Type.Array(Type.String()),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    expiresAt: Nullable(Timestamp),
    customDomainId: Nullable(Type.String()),
    redirectType: Type.Integer({ enum: [...REDIRECT_TYPES] }),
    expiredUrl: Nullable(Type.String()),
    maxClicks: Nullable(Type.Integer()),
    startsAt: Nullable(Timestamp),
    forwardQuery: Type.Boolean(),
    rules: Type.Array(LinkRule),
    variants: Type.Array(LinkVariant, {
      description: 'Split destinations ([]: none, visits go to destinationUrl)',
    }),
    passwordProtected: Type.Boolean({ description: 'Whether a visit asks for a password first' }),
    og: Nullable(LinkOg),
    flagged: Type.Optional(LinkFlagged),
  },
  { $id: 'Link', title: 'Link' },
)
export type Link = Static<typeof Link>

export const ListLinksQuery = Type.Object(
  {
    ...PageQuery.properties,
    search: Type.Optional(
      Type.String({ maxLength: 200, description: 'Title, short code or destination URL' }),
    ),
    shortCode: Type.Optional(
      Type.String({
        maxLength: LINK_LIMITS.slugMax,
        description: 'Exactly this short code (case-sensitive)',
      }),
    ),
    status: Type.Optional(StringEnum(LINK_STATUSES)),
    tag: Type.Optional(Type.String({ maxLength: LINK_LIMITS.tagMax })),
    sortBy: Type.Optional(StringEnum(LINK_SORT_FIELDS)),
    sortOrder: Type.Optional(StringEnum(SORT_ORDERS)),
  },
  { additionalProperties: false },
)
export type ListLinksQuery = Static<typeof ListLinksQuery>

export const BulkCreateBody = Type.Object(
  {
    links: Type.Array(
      Type.Unknown({
        description:
          'A create body, as for POST /api/use/links (CreateLinkBody). Each item is validated on its own: an invalid item fails alone in `results`, the valid ones are created together.',
      }),
      { minItems: 1, maxItems: LINK_LIMITS.bulkMax },
    ),
  },
  { additionalProperties: false },
)
export type BulkCreateBody = Static<typeof BulkCreateBody>

export const BulkItemError = Type.Object({
  error: Type.String(),
  message: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
})
export const BulkCreateResult = Type.Object(
  {
    created: Type.Integer(),
    failed: Type.Integer(),
    results: Type.Array(
      Type.Object({
        index: Type.Integer(),
        status: StringEnum(['created', 'failed'] as const),
        link: Type.Optional(Link),
        error: Type.Optional(BulkItemError),
      }),
    ),
  },
  { $id: 'BulkCreateResult', title: 'BulkCreateResult' },
)
export type BulkCreateResult = Static<typeof BulkCreateResult>

export const ImportLinksBody = Type.Object(
  {
    source: Type.Optional(
      StringEnum(IMPORT_SOURCES, {
        description:
          "Who wrote the file: linkd (its CSV or JSON lines, the default), bitly (the links CSV), shlink (the short-URL CSV), yourls (an export plugin's CSV), kutt (the links JSON of GET /api/v2/links)",
      }),
    ),
    file: Type.String({
      description: `The file's text (UTF-8, at most ${IMPORT_LIMITS.fileBytesMax / 1024 / 1024} MB and ${IMPORT_LIMITS.rowsMax} rows)`,
    }),
    dryRun: Type.Optional(
      Type.Boolean({ description: 'Check every row as an import would, and write nothing' }),
    ),
  },
  { additionalProperties: false },
)
export type ImportLinksBody = Static<typeof ImportLinksBody>

export const IMPORT_ROW_STATUSES = ['created', 'wouldCreate', 'failed'] as const
export const ImportLinksResult = Type.Object(
  {
    source: StringEnum(IMPORT_SOURCES),
    dryRun: Type.Boolean(),
    created: Type.Integer({ description: 'Links created (0 in a dry run)' }),
    wouldCreate: Type.Integer({ description: 'Links a dry run would create (0 otherwise)' }),
    failed: Type.Integer(),
    results: Type.Array(
      Type.Object({
        line: Type.Integer({
          description:
            "The row's line in the file (a JSON array, Kutt's or linkd's: the link's position in it)",
        }),
        status: StringEnum(IMPORT_ROW_STATUSES),
        shortCode: Nullable(
          Type.String({ description: 'The short code the row asked for (or got, once created)' }),
        ),
        link: Type.Optional(Link),
        error: Type.Optional(BulkItemError),
      }),
    ),
  },
  { $id: 'ImportLinksResult', title: 'ImportLinksResult' },
)
export type ImportLinksResult = Static<typeof ImportLinksResult>

export const QrQuery = Type.Object(
  {
    format: Type.Optional(StringEnum(QR_FORMATS)),
    size: Type.Optional(Type.Integer({ minimum: 64, maximum: 2048, description: 'PNG width in pixels' })),
  },
  { additionalProperties: false },
)
export type QrQuery = Static<typeof QrQuery>

/** A range edge of click analytics: an ISO 8601 date-time, or a date alone (a whole UTC day). */
const RangeEdge = (edge: 'start' | 'end') =>
  Type.Optional(
    Type.Union([Type.String({ format: 'date-time' }), Type.String({ format: 'date' })], {
      description: `ISO 8601 date-time, or a date: its ${edge === 'start' ? 'first' : 'last'} millisecond (UTC)`,
    }),
  )

export const AnalyticsQuery = Type.Object(
  {
    startDate: RangeEdge('start'),
    endDate: RangeEdge('end'),
    interval: Type.Optional(StringEnum(ANALYTICS_INTERVALS)),
  },
  { additionalProperties: false },
)
export type AnalyticsQuery = Static<typeof AnalyticsQuery>

const Share = (name: string) =>
  Type.Object({ [name]: Type.String(), clicks: Type.Integer(), percentage: Type.Number() })
const Counted = Type.Object({ value: Type.String(), clicks: Type.Integer() })

export const LinkAnalytics = Type.Object(
  {
    linkId: Type.String(),
    range: Type.Object({ startDate: Timestamp, endDate: Timestamp }),
    interval: StringEnum(ANALYTICS_INTERVALS),
    totalClicks: Type.Integer({
      description: 'Human clicks in the range (QR scans included, bots excluded)',
    }),
    uniqueVisitors: Type.Integer({
      description: 'Distinct daily-salted hashes of IP + user agent, summed per day',
    }),
    qrScans: Type.Integer(),
    botDetection: Type.Object({ count: Type.Integer(), percentage: Type.Number() }),
    blockedVisits: Type.Integer({
      description:
        'Visits answered with the safety warning page (the link was flagged), whole UTC days; in botDetection too',
    }),
    responseTime: Type.Number({ description: 'Average server time to produce the redirect, ms' }),
    bounceRate: Type.Number({ description: 'Percent of unique visitors with exactly one click' }),
    geography: Type.Array(
      Type.Object({
        country: Type.String(),
        region: Nullable(Type.String()),
        clicks: Type.Integer(),
        percentage: Type.Number(),
      }),
    ),
    devices: Type.Array(Share('device')),
    browsers: Type.Array(Share('browser')),
    os: Type.Array(Share('os')),
    referrers: Type.Array(Type.Object({ domain: Type.String(), clicks: Type.Integer() })),
    timeSeries: Type.Array(
      Type.Object({ timestamp: Timestamp, clicks: Type.Integer(), bots: Type.Integer() }),
    ),
    utmSources: Type.Array(Counted),
    utmMediums: Type.Array(Counted),
    utmCampaigns: Type.Array(Counted),
    platforms: Type.Optional(
      Type.Array(PlatformShare, {
        description: "A smart link's human clicks per target platform (smart links only)",
      }),
    ),
    installs: Type.Optional(
      Type.Integer({
        description:
          'Smart links only: players of any game of the organization whose install (in the range) was attributed to this link by click id',
      }),
    ),
    variants: Type.Optional(
      Type.Array(
        Type.Object({
          destinationUrl: Type.String(),
          weight: Type.Integer(),
          clicks: Type.Integer({ description: 'Human clicks that went to this variant in the range' }),
          uniqueVisitors: Type.Integer({ description: 'Daily visitors of this variant, summed per day' }),
          installs: Type.Integer({
            description:
              'Installs attributed by click id to visits of this variant (smart links only; 0 for links, whose visits carry no click id)',
          }),
        }),
        { description: 'Links and smart links with variants: the figures of each current variant' },
      ),
    ),
    installRevenue: Type.Optional(
      Type.Array(
        Type.Object({
          gameId: Type.String({ description: 'The game (its slug)' }),
          currency: Type.String({ description: "The game's reporting currency (ISO 4217)" }),
          installs: Type.Integer({ description: 'Attributed installs of this game in the range' }),
          revenue: Type.Number({ description: 'Revenue in the range of those players, reporting currency' }),
        }),
        { description: 'Smart links only: per game, the attributed installs and their revenue' },
      ),
    ),
  },
  { $id: 'LinkAnalytics', title: 'LinkAnalytics' },
)
export type LinkAnalytics = Static<typeof LinkAnalytics>

/** `GET /api/use/analytics/clicks`: the organization's clicks per UTC day. */
export const ClicksQuery = Type.Object(
  {
    startDate: RangeEdge('start'),
    endDate: RangeEdge('end'),
  },
  { additionalProperties: false },
)
export type ClicksQuery = Static<typeof ClicksQuery>

export const ClickDay = Type.Object({
  date: Type.String({ pattern: DAY_PATTERN, description: 'UTC date YYYY-MM-DD' }),
  clicks: Type.Integer({ description: 'Human clicks (QR scans included, bots excluded)' }),
  bots: Type.Integer({ description: 'Clicks by bots and link previews' }),
  qrScans: Type.Integer(),
})
export type ClickDay = Static<typeof ClickDay>

export const OrganizationClicks = Type.Object(
  {
    range: Type.Object({ startDate: Timestamp, endDate: Timestamp }),
    totalClicks: Type.Integer({
      description: "Human clicks of the organization's links on the days of the range (bots excluded)",
    }),
    bots: Type.Integer(),
    qrScans: Type.Integer(),
    days: Type.Array(ClickDay, { description: 'Every UTC day of the range, oldest first, zero-filled' }),
  },
  { $id: 'OrganizationClicks', title: 'OrganizationClicks' },
)
export type OrganizationClicks = Static<typeof OrganizationClicks>
