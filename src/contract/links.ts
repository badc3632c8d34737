/**
 * Links: their create and update bodies (rules, preview, password), the link as answered, the
 * listing, bulk creation, imports and the QR query. Their click analytics: click-analytics.ts.
 */
import Type, { type Static } from 'typebox'
import { Nullable, PageQuery, StringEnum, Timestamp } from './common.js'
import { ForceShortUrlChange } from './smart-links.js'
import { LinkVariant, Variants } from './variants.js'
import { LinkFlagged } from './safety.js'
import { HTTP_URL_PATTERN, PlainText, SLUG_PATTERN } from './text.js'
import {
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
