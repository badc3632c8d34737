/**
 * QR codes as resources: one styled code per flyer or poster, for a link or a smart link, with its
 * own scans.
 */
import Type, { type Static } from 'typebox'
import { Nullable, PageQuery, StringEnum, Timestamp } from './common.js'
import { PlainText } from './text.js'
import { QR_ERROR_LEVELS, QR_FORMATS, QR_LIMITS } from './limits.js'

const Colour = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#rrggbb' })
const Background = Type.String({
  pattern: '^(#[0-9A-Fa-f]{6}|transparent)$',
  description: "#rrggbb, or 'transparent' (no background drawn)",
})
const ErrorCorrection = StringEnum(QR_ERROR_LEVELS, {
  description: 'L 7%, M 15%, Q 25%, H 30% of the symbol may be lost; a logo forces H',
})
const Margin = Type.Integer({
  minimum: 0,
  maximum: QR_LIMITS.marginMax,
  description: 'Quiet zone around the symbol, in modules (default 4, the standard)',
})
const Logo = Type.String({
  maxLength: Math.ceil((QR_LIMITS.logoBytesMax * 4) / 3) + 100,
  pattern: '^data:image/(png|svg\\+xml)[;,]',
  description:
    'A data URL of a PNG or SVG image, at most 100 KB decoded, centred on the symbol (forces errorCorrection H)',
})

/** A style as sent: every field optional (create: the defaults; update: the stored value stays). */
export const QrStyleInput = Type.Object(
  {
    foreground: Type.Optional(Colour),
    background: Type.Optional(Background),
    errorCorrection: Type.Optional(ErrorCorrection),
    margin: Type.Optional(Margin),
    logo: Type.Optional(Nullable(Logo)),
  },
  { additionalProperties: false },
)
export type QrStyleInput = Static<typeof QrStyleInput>

/** A style as stored and returned: every field set; the logo itself is not echoed (it is in the image). */
export const QrStyle = Type.Object(
  {
    foreground: Type.String(),
    background: Type.String(),
    errorCorrection: StringEnum(QR_ERROR_LEVELS),
    margin: Type.Integer(),
    logo: Nullable(
      Type.Object({
        contentType: StringEnum(['image/png', 'image/svg+xml'] as const),
        bytes: Type.Integer(),
      }),
    ),
  },
  { $id: 'QrStyle', title: 'QrStyle' },
)
export type QrStyle = Static<typeof QrStyle>

export const QR_STYLE_DEFAULTS = {
  foreground: '#000000',
  background: '#ffffff',
  errorCorrection: 'M',
  margin: QR_LIMITS.marginDefault,
} as const

const Title = PlainText({ maxLength: QR_LIMITS.titleMax })

export const CreateQrCodeBody = Type.Object(
  {
    linkId: Type.Optional(Type.String({ maxLength: 100, description: 'lnk_… (or give smartLinkId)' })),
    smartLinkId: Type.Optional(Type.String({ maxLength: 100, description: 'sml_… (or give linkId)' })),
    title: Type.Optional(Title),
    style: Type.Optional(QrStyleInput),
  },
  { additionalProperties: false },
)
export type CreateQrCodeBody = Static<typeof CreateQrCodeBody>

export const UpdateQrCodeBody = Type.Object(
  {
    title: Type.Optional(Nullable(Title)),
    style: Type.Optional(QrStyleInput),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateQrCodeBody = Static<typeof UpdateQrCodeBody>

export const QrCode = Type.Object(
  {
    id: Type.String({ description: 'qr_…' }),
    linkId: Nullable(Type.String()),
    smartLinkId: Nullable(Type.String()),
    encodedUrl: Type.String({ description: 'The URL the image encodes: the short URL with ?qr=<id>' }),
    title: Nullable(Type.String()),
    style: QrStyle,
    scans: Type.Integer({ description: 'Human visits of encodedUrl (bots excluded)' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'QrCode', title: 'QrCode' },
)
export type QrCode = Static<typeof QrCode>

export const ListQrCodesQuery = Type.Object(
  {
    ...PageQuery.properties,
    linkId: Type.Optional(Type.String({ maxLength: 100 })),
    smartLinkId: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
)
export type ListQrCodesQuery = Static<typeof ListQrCodesQuery>

export const QrImageQuery = Type.Object(
  {
    format: Type.Optional(StringEnum(QR_FORMATS, { description: 'svg (default) or png' })),
    size: Type.Optional(
      Type.Integer({
        minimum: QR_LIMITS.sizeMin,
        maximum: QR_LIMITS.sizeMax,
        description: 'Width and height in pixels (default 300)',
      }),
    ),
  },
  { additionalProperties: false },
)
export type QrImageQuery = Static<typeof QrImageQuery>
