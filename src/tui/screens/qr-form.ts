/**
 * The QR code create and edit forms of the TUI: their fields, the bodies they make and the one-line
 * style summary. Colours and the contrast are the daemon's to judge (its 400 is shown under the
 * form); the margin must be a number to be sent at all, so it is checked here. No logo: a file
 * cannot be picked in a text field (`linkctl qr create|update --logo` takes one).
 */
import type {
  CreateQrCodeBody,
  QrCode,
  QrStyle,
  QrStyleInput,
  UpdateQrCodeBody,
} from '../../contract/qr-codes.js'
import { QR_STYLE_DEFAULTS } from '../../contract/qr-codes.js'
import { QR_ERROR_LEVELS, QR_LIMITS } from '../../contract/limits.js'
import type { FormField } from '../components/form.js'

/** "#1f2937 on transparent, H, logo": the margin only when not the standard 4. */
export function styleSummary(style: QrStyle): string {
  return [
    `${style.foreground} on ${style.background}`,
    style.errorCorrection,
    ...(style.margin === QR_LIMITS.marginDefault ? [] : [`margin ${style.margin}`]),
    ...(style.logo ? ['logo'] : []),
  ].join(', ')
}

type StyleValues = Required<Omit<QrStyleInput, 'logo'>>

export function qrFields(code?: QrCode): FormField[] {
  const style: StyleValues = code?.style ?? QR_STYLE_DEFAULTS
  return [
    { name: 'title', label: code ? 'Title (empty: none)' : 'Title (optional)', value: code?.title ?? '' },
    { name: 'foreground', label: 'Foreground (#rrggbb)', value: style.foreground },
    { name: 'background', label: 'Background (#rrggbb or transparent)', value: style.background },
    {
      name: 'errorCorrection',
      label: `Error correction (${QR_ERROR_LEVELS.join(', ')})`,
      value: style.errorCorrection,
    },
    { name: 'margin', label: `Margin, modules (0-${QR_LIMITS.marginMax})`, value: String(style.margin) },
  ]
}

function marginOf(text: string): number {
  const t = text.trim()
  const n = Number(t)
  if (!/^\d+$/.test(t) || n > QR_LIMITS.marginMax)
    throw new Error(`margin: a whole number from 0 to ${QR_LIMITS.marginMax}`)
  return n
}

/** The style fields as typed (error correction upper-cased: `h` is H). */
function styleOf(values: Record<string, string>): StyleValues {
  return {
    foreground: (values.foreground ?? '').trim(),
    background: (values.background ?? '').trim(),
    errorCorrection: (values.errorCorrection ?? '').trim().toUpperCase() as StyleValues['errorCorrection'],
    margin: marginOf(values.margin ?? ''),
  }
}

export function qrCreateBody(
  owner: { linkId: string } | { smartLinkId: string },
  values: Record<string, string>,
): CreateQrCodeBody {
  const title = (values.title ?? '').trim()
  return { ...owner, ...(title ? { title } : {}), style: styleOf(values) }
}

/** Only what changed (the style field by field); null when nothing did. */
export function qrEditBody(code: QrCode, values: Record<string, string>): UpdateQrCodeBody | null {
  const body: UpdateQrCodeBody = {}
  const title = (values.title ?? '').trim()
  if (title !== (code.title ?? '')) body.title = title === '' ? null : title
  const typed = styleOf(values)
  const style: QrStyleInput = {}
  for (const name of ['foreground', 'background', 'errorCorrection', 'margin'] as const)
    if (typed[name] !== code.style[name]) Object.assign(style, { [name]: typed[name] })
  if (Object.keys(style).length > 0) body.style = style
  return Object.keys(body).length === 0 ? null : body
}
