/**
 * What the `qr` verbs share: the style flags and the bodies they become (a `--logo` file read into
 * a data URL), how a QR code looks on the terminal, and which link or smart link a reference names.
 */
import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { Option, type Command } from 'commander'
import type { QrCode, QrStyleInput } from '../../../contract/qr-codes.js'
import { QR_ERROR_LEVELS, QR_LIMITS } from '../../../contract/limits.js'
import type { LinkdClient } from '../../../client/index.js'
import { action, type ActionExtra } from '../../action.js'
import type { Ctx } from '../../../session/context.js'
import { CliError, EXIT, UsageError } from '../../../session/exit-codes.js'
import { when, type Column, type Field } from '../../output.js'
import { intArg } from '../../parse.js'
import { findLink } from '../links/refs.js'
import { findSmartLink } from '../smart-links/shared.js'
import { readFailure } from '../../sink.js'

/** Flags of `qr create` and `qr update`, as commander parses them. */
export interface QrFlags {
  title?: string
  foreground?: string
  background?: string
  errorCorrection?: (typeof QR_ERROR_LEVELS)[number]
  margin?: number
  /** A PNG or SVG file; update: `--no-logo` sets false (remove the logo). */
  logo?: string | false
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A PNG or SVG file as a data URL (its type from its first bytes, else its extension). */
export async function logoDataUrl(file: string): Promise<string> {
  let data: Buffer
  try {
    data = await readFile(file)
  } catch (err) {
    throw readFailure(`--logo ${file}`, err)
  }
  const head = data.subarray(0, 256).toString('utf8').trimStart()
  const type = data.subarray(0, 8).equals(PNG_SIGNATURE)
    ? 'image/png'
    : /^(<\?xml|<svg|<!--)/i.test(head) || extname(file).toLowerCase() === '.svg'
      ? 'image/svg+xml'
      : undefined
  if (!type) throw new UsageError(`--logo: ${file} is neither a PNG nor an SVG image`)
  if (data.length > QR_LIMITS.logoBytesMax)
    throw new UsageError(
      `--logo: ${file} is ${data.length} bytes; at most ${QR_LIMITS.logoBytesMax} (100 KB)`,
    )
  return `data:${type};base64,${data.toString('base64')}`
}

/** The style a set of flags asks for (undefined: none asked). */
export async function styleOf(flags: QrFlags): Promise<QrStyleInput | undefined> {
  const style: QrStyleInput = {}
  if (flags.foreground !== undefined) style.foreground = flags.foreground
  if (flags.background !== undefined) style.background = flags.background
  if (flags.errorCorrection !== undefined) style.errorCorrection = flags.errorCorrection
  if (flags.margin !== undefined) style.margin = flags.margin
  if (flags.logo === false) style.logo = null
  else if (flags.logo !== undefined) style.logo = await logoDataUrl(flags.logo)
  return Object.keys(style).length ? style : undefined
}

/** `{linkId}` or `{smartLinkId}` of a reference: an id (lnk_/sml_), a short code or a short URL. */
export async function targetOf(
  client: LinkdClient,
  ref: string,
): Promise<{ linkId: string } | { smartLinkId: string }> {
  if (ref.startsWith('lnk_')) return { linkId: ref }
  if (ref.startsWith('sml_')) return { smartLinkId: ref }
  try {
    return { linkId: (await findLink(client, ref)).id }
  } catch (err) {
    if (!(err instanceof CliError) || err.exitCode !== EXIT.notFound) throw err
  }
  try {
    return { smartLinkId: (await findSmartLink(client, ref)).id }
  } catch (err) {
    if (err instanceof CliError && err.exitCode === EXIT.notFound)
      throw new CliError(`no link or smart link with the id or short code "${ref}"`, EXIT.notFound)
    throw err
  }
}

const logoOf = (q: QrCode) =>
  q.style.logo ? `${q.style.logo.contentType}, ${q.style.logo.bytes} bytes` : null

export function qrColumns(tty: boolean): Column<QrCode>[] {
  return [
    { header: 'ID', value: (q) => q.id },
    { header: 'LINK', value: (q) => q.linkId ?? q.smartLinkId },
    { header: 'TITLE', value: (q) => q.title, fit: 'flex', drop: 2 },
    { header: 'SCANS', value: (q) => q.scans },
    { header: 'ENCODED URL', value: (q) => q.encodedUrl, only: 'piped' },
    { header: 'CREATED', value: (q) => when(q.createdAt, tty), drop: 3 },
  ]
}

export function qrFields(q: QrCode, tty: boolean): Field[] {
  return [
    ['ID', q.id],
    ['LINK', q.linkId],
    ['SMART LINK', q.smartLinkId],
    ['ENCODED URL', q.encodedUrl],
    ['TITLE', q.title],
    ['FOREGROUND', q.style.foreground],
    ['BACKGROUND', q.style.background],
    ['ERROR CORRECTION', q.style.errorCorrection],
    ['MARGIN', q.style.margin],
    ['LOGO', logoOf(q)],
    ['SCANS', q.scans],
    ['CREATED', when(q.createdAt, tty)],
    ['UPDATED', when(q.updatedAt, tty)],
  ]
}

/** The flags of `qr create` and `qr update`. */
export function qrFieldOptions(cmd: Command, mode: 'create' | 'update'): Command {
  cmd
    .option('--title <text>', mode === 'update' ? 'title ("" clears it)' : 'title, e.g. where it is printed')
    .option('--foreground <#rrggbb>', 'colour of the dark modules (default #000000)')
    .option('--background <#rrggbb|transparent>', 'colour behind them (default #ffffff)')
    .addOption(
      new Option('--error-correction <level>', 'L, M (default), Q or H; a logo forces H').choices(
        QR_ERROR_LEVELS,
      ),
    )
    .option(
      '--margin <modules>',
      `quiet zone, 0-${QR_LIMITS.marginMax} modules (default 4)`,
      intArg(0, QR_LIMITS.marginMax),
    )
    .option('--logo <file>', 'a PNG or SVG file (at most 100 KB) drawn in the middle')
  if (mode === 'update') cmd.option('--no-logo', 'remove the logo')
  return cmd
}

export const REF_HELP = 'QR code id (qr_...)'

/** The style fields the flags set, named as the flags in a refusal (`--foreground`, not `style.foreground`). */
export const STYLE_FLAGS = {
  'style.foreground': '--foreground',
  'style.background': '--background',
  'style.errorCorrection': '--error-correction',
  'style.margin': '--margin',
  'style.logo': '--logo',
}

/** A commander action for verbs whose first argument is a QR code id. */
export const refAction = <O>(
  run: (opts: O & { ref: string }, ctx: Ctx) => Promise<void>,
  extra?: ActionExtra,
) => action<O>(([ref], opts, ctx) => run({ ...opts, ref: ref ?? '' }, ctx), extra)
