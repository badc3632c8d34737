import Type, { type Static } from 'typebox'
import { Nullable, Page, Timestamp } from './common.js'
import { VisibleText } from './text.js'

import { AD_NETWORK_PATTERN, SKAN_LIMITS, SOURCE_IDENTIFIER_PATTERN, type CoarseBand } from './skan-limits.js'

export * from './skan-limits.js'

const L = SKAN_LIMITS

const Band = Type.Object(
  {
    min: Type.Integer({ minimum: 0, maximum: L.valueMax }),
    max: Type.Integer({ minimum: 0, maximum: L.valueMax }),
  },
  { additionalProperties: false },
)
const Money = Type.Number({ minimum: 0 })

/**
 * A conversion schema as sent. Rules the JSON Schema cannot say (powers of two, no shared bit,
 * bands ordered, non-overlapping and covering 0-63, lockWindow equal to the campaign's) are the
 * service's, each a 400 naming the field.
 */
const SchemaEvents = Type.Record(Type.String({ minLength: 1, maxLength: L.eventNameMax }), Type.Integer(), {
  description: 'Event name → 6-bit value: each a power of two (1, 2, 4 … 32), no two sharing a bit',
  maxProperties: L.eventsMax,
  examples: [{ tutorial_complete: 1, level_5: 2, purchase: 4 }],
})
const CoarseValues = Type.Object(
  { low: Band, medium: Band, high: Band },
  {
    additionalProperties: false,
    description:
      'Fine-value range of each coarse band: ordered, non-overlapping, covering 0-63 (default low 0-10, medium 11-40, high 41-63)',
  },
)
const LockWindowHours = Type.Integer({
  description: "Hours; equal to the campaign's lockWindowHours (the default)",
})
const DecodedRevenue = Type.Object(
  {
    fine: Type.Optional(
      Type.Record(Type.String({ pattern: '^(6[0-3]|[1-5]?[0-9])$' }), Money, {
        description: 'Fine value ("0"-"63") → revenue it decodes to (reporting currency)',
        additionalProperties: false,
      }),
    ),
    coarse: Type.Optional(
      Type.Object(
        { low: Type.Optional(Money), medium: Type.Optional(Money), high: Type.Optional(Money) },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The revenue each value decodes to (the optimizer writes it; reports use it for estimated revenue)',
  },
)

/**
 * A conversion schema as sent. Rules the JSON Schema cannot say (powers of two, no shared bit,
 * bands ordered, non-overlapping and covering 0-63, lockWindow equal to the campaign's) are the
 * service's, each a 400 naming the field.
 */
export const ConversionSchemaInput = Type.Object(
  {
    events: SchemaEvents,
    coarseValues: Type.Optional(CoarseValues),
    lockWindow: Type.Optional(LockWindowHours),
    decodedRevenue: Type.Optional(DecodedRevenue),
  },
  { additionalProperties: false },
)
export type ConversionSchemaInput = Static<typeof ConversionSchemaInput>

export interface ConversionSchema {
  events: Record<string, number>
  coarseValues: Record<CoarseBand, { min: number; max: number }>
  lockWindow: number
  decodedRevenue?: {
    fine?: Record<string, number>
    coarse?: Partial<Record<CoarseBand, number>>
  }
}

export const ConversionSchemaOut = Type.Object({
  events: SchemaEvents,
  coarseValues: CoarseValues,
  lockWindow: LockWindowHours,
  decodedRevenue: Type.Optional(DecodedRevenue),
})

const campaignFields = {
  id: Type.String({ examples: ['skan_01JD8W3A2B4C6D8E0F2G4H6J8K'] }),
  gameId: Type.String({ description: 'The game slug' }),
  name: Type.String(),
  adNetworkId: Type.String({ examples: ['abc123.skadnetwork'] }),
  affiliateId: Type.Optional(Type.String()),
  sourceIdentifier: Type.Optional(
    Type.String({ description: 'The source-identifier (4.0) / campaign-id (2.2, 3.0) it matches' }),
  ),
  lockWindowHours: Type.Integer(),
  conversionSchema: ConversionSchemaOut,
  createdAt: Timestamp,
  updatedAt: Timestamp,
}
export const SkanCampaign = Type.Object(campaignFields)
export type SkanCampaign = Static<typeof SkanCampaign>

const CampaignName = VisibleText({ minLength: 1, maxLength: L.nameMax })
const AdNetworkId = Type.String({
  maxLength: L.adNetworkMax,
  pattern: AD_NETWORK_PATTERN,
  description: '<name>.skadnetwork, lower-case',
  examples: ['abc123.skadnetwork'],
})
const AffiliateId = VisibleText({ minLength: 1, maxLength: L.affiliateMax })
const SourceIdentifier = Type.String({
  pattern: SOURCE_IDENTIFIER_PATTERN,
  description:
    "2-4 digits: the postbacks' source-identifier (4.0) or campaign-id (2.2, 3.0, compared as numbers) this campaign receives",
  examples: ['39'],
})
const LockWindow = Type.Integer({ minimum: L.lockWindowMin, maximum: L.lockWindowMax, description: 'hours' })

export const CreateCampaignBody = Type.Object(
  {
    name: CampaignName,
    adNetworkId: AdNetworkId,
    affiliateId: Type.Optional(AffiliateId),
    sourceIdentifier: Type.Optional(SourceIdentifier),
    lockWindowHours: LockWindow,
    conversionSchema: ConversionSchemaInput,
  },
  { additionalProperties: false },
)
export type CreateCampaignBody = Static<typeof CreateCampaignBody>

export const UpdateCampaignBody = Type.Object(
  {
    name: Type.Optional(CampaignName),
    adNetworkId: Type.Optional(AdNetworkId),
    affiliateId: Type.Optional(Nullable(AffiliateId)),
    sourceIdentifier: Type.Optional(Nullable(SourceIdentifier)),
    lockWindowHours: Type.Optional(LockWindow),
    conversionSchema: Type.Optional(ConversionSchemaInput),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateCampaignBody = Static<typeof UpdateCampaignBody>

export const SkanGameParams = Type.Object({ gameId: Type.String({ minLength: 1, maxLength: 64 }) })
export const SkanCampaignParams = Type.Object({ campaignId: Type.String({ minLength: 1, maxLength: 100 }) })
/** A page of a game's campaigns (the pagination envelope; `data` as before). */
export const CampaignList = Page(SkanCampaign)

/** The answer to a posted postback. */
export const PostbackAnswer = Type.Object({
  id: Type.String({ examples: ['skan_01JD8W3A2B4C6D8E0F2G4H6J8K'] }),
  verified: Type.Boolean({ description: "Apple's signature verified" }),
  duplicate: Type.Boolean({ description: 'Already received (same transaction-id and sequence index)' }),
  campaignId: Type.Union([Type.String(), Type.Null()]),
  version: Type.String(),
})
export type PostbackAnswer = Static<typeof PostbackAnswer>

/** Apple's real, signed 4.0 postback: the documented example, and a test vector. */
export const APPLE_POSTBACK_EXAMPLE = Object.freeze({
  version: '4.0',
  'ad-network-id': 'com.example',
  'source-identifier': '39',
  'app-id': 525463029,
  'transaction-id': '6aafb7a5-0170-41b5-bbe4-fe71dedf1e31',
  redownload: false,
  'source-domain': 'example.com',
  'fidelity-type': 1,
  'did-win': true,
  'coarse-conversion-value': 'high',
  'postback-sequence-index': 0,
  'attribution-signature':
    'MEUCIQD4rX6eh38qEhuUKHdap345UbmlzA7KEZ1bhWZuYM8MJwIgMnyiiZe6heabDkGwOaKBYrUXQhKtF3P/ERHqkR/XpuA=',
})

/** Apple's postback fields, documented only: the service checks them per version. */
const POSTBACK_FIELDS: Record<string, string> = {
  version: '2.2, 3.0 or 4.x (later 4.x read as 4.0)',
  'ad-network-id': 'The ad network id (string)',
  'source-identifier': '4.0: 2-4 digits (string)',
  'campaign-id': '2.2 and 3.0: integer 1-100',
  'app-id': 'The advertised app’s App Store id (integer)',
  'transaction-id': 'UUID; with postback-sequence-index the dedupe key',
  redownload: 'boolean',
  'source-app-id': 'integer; never with source-domain',
  'source-domain': '4.0: host name; never with source-app-id',
  'fidelity-type': '0 or 1',
  'did-win': '3.0 and 4.0: boolean',
  'postback-sequence-index': '4.0: 0, 1 or 2 (windows 0-2, 3-7, 8-35 days)',
  'conversion-value': 'Fine value 0-63 (first postback only); not signed',
  'coarse-conversion-value': '4.0: low, medium or high; not signed',
  'attribution-signature': 'base64 DER ECDSA P-256 / SHA-256 signature by Apple',
}

/** Apple's postback fields: the only ones a postback is stored with (any other is dropped). */
export const POSTBACK_FIELD_NAMES: readonly string[] = Object.keys(POSTBACK_FIELDS)

/**
 * The postback body: Apple's field names, each documented but not typed here (their types differ
 * by version, and the signature covers what was sent): checked per version by the service (400
 * with details).
 */
export const PostbackBody = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(POSTBACK_FIELDS).map(([k, description]) => [k, { description }]),
  ),
  description:
    'An Apple SKAdNetwork postback (2.2, 3.0, 4.0; later 4.x read as 4.0), at most 8 KB: version, ad-network-id, source-identifier (4.0) or campaign-id (2.2, 3.0), app-id, transaction-id, redownload, fidelity-type, did-win (3.0+), postback-sequence-index (4.0), source-app-id or source-domain, conversion-value, coarse-conversion-value, attribution-signature. Other fields are not stored',
  examples: [APPLE_POSTBACK_EXAMPLE],
})

export const SkanPostback = Type.Object({
  id: Type.String(),
  receivedAt: Timestamp,
  version: Type.String(),
  verified: Type.Boolean(),
  transactionId: Type.String(),
  sequenceIndex: Type.Integer(),
  window: Type.String({ description: 'Conversion window in days: 0-2, 3-7 or 8-35' }),
  adNetworkId: Type.String(),
  sourceIdentifier: Type.String(),
  appId: Type.Integer(),
  didWin: Type.Boolean(),
  redownload: Type.Boolean(),
  fineValue: Type.Union([Type.Integer(), Type.Null()]),
  coarseValue: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(Type.String(), { description: 'Event names decoded from the fine value' }),
})
export type SkanPostback = Static<typeof SkanPostback>

const Count = Type.Integer({ minimum: 0 })
export const CampaignReport = Type.Object({
  postbacks: Type.Integer({ description: 'Every postback received, verified or not' }),
  verified: Count,
  verifiedShare: Type.Number({ description: 'verified / postbacks (0 without postbacks)' }),
  byWindow: Type.Array(
    Type.Object({
      window: Type.String(),
      postbacks: Type.Integer({ description: 'Every postback of the window, verified or not' }),
      verified: Count,
      coarse: Type.Object({ low: Count, medium: Count, high: Count }),
    }),
  ),
  installs: Type.Integer({ description: 'Verified first postbacks with did-win true' }),
  redownloads: Type.Integer({ description: 'Of those, redownload true' }),
  events: Type.Record(Type.String(), Count),
  coarse: Type.Object({ low: Count, medium: Count, high: Count }),
  estimatedRevenue: Type.Number(),
})
export type CampaignReport = Static<typeof CampaignReport>

export const CampaignWithReport = Type.Object({ ...campaignFields, report: CampaignReport })
export type CampaignWithReport = SkanCampaign & { report: CampaignReport }
