/**
 * Smart links (deep links): one short URL that sends each visitor to their platform's target
 * (iOS, Android, desktop), else the fallback. They share the short-code namespace of their domain
 * with links.
 */
import Type, { type Static } from 'typebox'
import { Nullable, PageQuery, StringEnum, Timestamp } from './common.js'
import { HTTP_URL_PATTERN, PlainText, SLUG_PATTERN } from './text.js'
import { LINK_LIMITS, LINK_VARIANT_LIMITS, SMART_LINK_PLATFORMS } from './limits.js'
import { LinkVariant } from './variants.js'
import { LinkFlagged } from './safety.js'

const TargetUrl = Type.String({
  minLength: 1,
  maxLength: LINK_LIMITS.destinationUrlMax,
  pattern: HTTP_URL_PATTERN,
  description: 'http:// or https:// URL, up to 2,048 characters (an app store page or a deep link site)',
})
export const SmartLinkTarget = Type.Object({ url: TargetUrl }, { additionalProperties: false })
export type SmartLinkTarget = Static<typeof SmartLinkTarget>
const Target = (platform: string) =>
  Nullable(
    Type.Object(
      { url: TargetUrl },
      { additionalProperties: false, description: `Where ${platform} visitors go (null: the fallback)` },
    ),
  )
const Title = PlainText({ maxLength: LINK_LIMITS.titleMax })
const Tags = Type.Array(PlainText({ minLength: 1, maxLength: LINK_LIMITS.tagMax }), {
  maxItems: LINK_LIMITS.tagsMax,
})
const ShortCode = Type.String({
  minLength: LINK_LIMITS.slugMin,
  maxLength: LINK_LIMITS.slugMax,
  pattern: SLUG_PATTERN,
  description:
    'Letters, digits, hyphens and underscores; shared with links on the same domain (409 when taken)',
})
/**
 * `force` of a PATCH (links and smart links): a short code or domain change of a short URL in use
 * (QR codes, or clicks in the last LINK_LIMITS.inUseDays days) is refused with 409 without it.
 */
export const ForceShortUrlChange = Type.Boolean({
  description: `Change shortCode or customDomainId even though the current short URL is in use (it has QR codes, or human clicks in the last ${LINK_LIMITS.inUseDays} days): without it such a change is a 409 naming them. The old short URL then answers 404`,
})
const AppendClickId = Type.Boolean({
  description:
    'Append the click id: `referrer=linkd_click%3D<clk_…>` on Google Play URLs (the install referrer), `linkd_click=<clk_…>` elsewhere. Default true',
})
const GameId = Nullable(
  Type.String({
    maxLength: 100,
    description: "The game this link promotes: one of the organization's games (its id)",
  }),
)
/** A smart link's split fallback: the variants a visitor without a platform target gets. */
const FallbackVariants = Type.Array(LinkVariant, {
  maxItems: LINK_VARIANT_LIMITS.variantsMax,
  description:
    'Split (A/B) fallback: a visitor whose platform has no target gets one by weight instead of fallbackUrl, and keeps it for the UTC day. 2-10 variants, integer weights adding up to 100, each URL once; null or [] clears',
})

export const CreateSmartLinkBody = Type.Object(
  {
    fallbackUrl: TargetUrl,
    ios: Type.Optional(Target('iOS')),
    android: Type.Optional(Target('Android')),
    desktop: Type.Optional(Target('Windows, macOS and Linux')),
    title: Type.Optional(Title),
    tags: Type.Optional(Tags),
    shortCode: Type.Optional(ShortCode),
    customDomainId: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    appendClickId: Type.Optional(AppendClickId),
    gameId: Type.Optional(GameId),
    variants: Type.Optional(Nullable(FallbackVariants)),
  },
  { additionalProperties: false },
)
export type CreateSmartLinkBody = Static<typeof CreateSmartLinkBody>

export const UpdateSmartLinkBody = Type.Object(
  {
    fallbackUrl: Type.Optional(TargetUrl),
    ios: Type.Optional(Target('iOS')),
    android: Type.Optional(Target('Android')),
    desktop: Type.Optional(Target('Windows, macOS and Linux')),
    title: Type.Optional(Nullable(Title)),
    tags: Type.Optional(Tags),
    shortCode: Type.Optional(ShortCode),
    customDomainId: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    force: Type.Optional(ForceShortUrlChange),
    appendClickId: Type.Optional(AppendClickId),
    gameId: Type.Optional(GameId),
    variants: Type.Optional(Nullable(FallbackVariants)),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateSmartLinkBody = Static<typeof UpdateSmartLinkBody>

export const SmartLink = Type.Object(
  {
    id: Type.String({ description: 'sml_…' }),
    shortUrl: Type.String(),
    shortCode: Type.String(),
    customDomainId: Nullable(Type.String()),
    title: Nullable(Type.String()),
    tags: Type.Array(Type.String()),
    fallbackUrl: Type.String(),
    ios: Nullable(SmartLinkTarget),
    android: Nullable(SmartLinkTarget),
    desktop: Nullable(SmartLinkTarget),
    appendClickId: Type.Boolean(),
    gameId: Nullable(Type.String()),
    variants: Type.Array(LinkVariant, {
      description: 'Split fallback ([]: none, visitors without a target go to fallbackUrl)',
    }),
    clicks: Type.Integer({ description: 'Human clicks (bots and link previews excluded)' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    flagged: Type.Optional(LinkFlagged),
  },
  { $id: 'SmartLink', title: 'SmartLink' },
)
export type SmartLink = Static<typeof SmartLink>

export const ListSmartLinksQuery = Type.Object(
  {
    ...PageQuery.properties,
    search: Type.Optional(Type.String({ maxLength: 200, description: 'Title, short code or a target URL' })),
    shortCode: Type.Optional(
      Type.String({
        maxLength: LINK_LIMITS.slugMax,
        description: 'Exactly this short code (case-sensitive)',
      }),
    ),
    tag: Type.Optional(Type.String({ maxLength: LINK_LIMITS.tagMax })),
  },
  { additionalProperties: false },
)
export type ListSmartLinksQuery = Static<typeof ListSmartLinksQuery>

/** One row of a smart link's `platforms` breakdown in its analytics. */
export const PlatformShare = Type.Object({
  platform: StringEnum(SMART_LINK_PLATFORMS),
  clicks: Type.Integer(),
  percentage: Type.Number(),
})
export type PlatformShare = Static<typeof PlatformShare>
