/**
 * What the `smart-links` verbs share: the create/update flags and the bodies they become, how a
 * smart link looks on the terminal, and the look-up by id, short code or short URL.
 */
import type { Command } from 'commander'
import type { CreateSmartLinkBody, SmartLink, UpdateSmartLinkBody } from '../../../contract/smart-links.js'
import { LINK_LIMITS } from '../../../contract/limits.js'
import type { LinkdClient } from '../../../client/index.js'
import { action, type ActionExtra } from '../../action.js'
import type { Ctx } from '../../../session/context.js'
import { CliError, EXIT, UsageError } from '../../../session/exit-codes.js'
import { when, type Column, type Field } from '../../output.js'
import { collectTag } from '../../parse.js'
import type { LinkVariant } from '../../../contract/variants.js'
import { variantText } from '../../../format/link-variants.js'
import {
  variantArg,
  FORCE_HELP,
  forceFlag,
  SHORT_CODE_FLAG,
  SHORT_CODE_RULE,
  shortCodeFlag,
  shortCodeOptions,
} from '../links/shared.js'
import { codeOf, pickByRef, withCode } from '../links/refs.js'

/** A smart link's fields named as the flags that set them in a refusal (`ios.url` → `--ios`). */
export const SMART_LINK_FLAGS = {
  ...SHORT_CODE_FLAG,
  fallbackUrl: '--fallback',
  'ios.url': '--ios',
  'android.url': '--android',
  'desktop.url': '--desktop',
  gameId: '--game',
  'tags[]': '--tag',
  'variants[]': '--variant',
} as const

export interface SmartLinkRefOpts {
  /** A smart link id (sml_...), short code or short URL. */
  ref: string
}

/** Flags of `smart-links create` and `update`, as commander parses them. */
export interface SmartLinkFlags {
  fallback?: string
  /** A URL, or false for `--no-ios` (update: back to the fallback). */
  ios?: string | false
  android?: string | false
  desktop?: string | false
  title?: string
  tag?: string[]
  clearTags?: boolean
  /** `--short-code`, or its alias `--slug`. */
  shortCode?: string
  slug?: string
  /** A verified custom domain, by name or dom_ id ("shared" on update: the shared domain). */
  domain?: string
  /** `--no-click-id` sets this to false (`--click-id` on update: true). */
  clickId?: boolean
  /** A game id; update: `--no-game` sets false (no game). */
  game?: string | false
  /** update only: move the short URL even though it is in use. */
  force?: boolean
  /** The fallback's split destinations; update: `--clear-variants` removes them. */
  variant?: LinkVariant[]
  clearVariants?: boolean
}

const PLATFORMS = ['ios', 'android', 'desktop'] as const

export function createSmartBody(flags: SmartLinkFlags, customDomainId?: string): CreateSmartLinkBody {
  if (!flags.fallback)
    throw new UsageError('a fallback URL is required: linkctl smart-links create --fallback <url>')
  const body: CreateSmartLinkBody = { fallbackUrl: flags.fallback }
  for (const p of PLATFORMS) {
    const v = flags[p]
    if (typeof v === 'string') body[p] = { url: v }
  }
  if (flags.title !== undefined && flags.title !== '') body.title = flags.title
  if (flags.tag) body.tags = flags.tag
  const code = shortCodeFlag(flags)
  if (code !== undefined) body.shortCode = code
  if (customDomainId !== undefined) body.customDomainId = customDomainId
  if (flags.clickId === false) body.appendClickId = false
  if (typeof flags.game === 'string') body.gameId = flags.game
  if (flags.variant) body.variants = flags.variant
  return body
}

/** The body of `smart-links update`; `customDomainId` is `--domain` resolved (null: shared). */
export function updateSmartBody(flags: SmartLinkFlags, customDomainId?: string | null): UpdateSmartLinkBody {
  if (flags.clearTags && flags.tag) throw new UsageError('use either --tag or --clear-tags, not both')
  const body: UpdateSmartLinkBody = {}
  if (flags.fallback !== undefined) body.fallbackUrl = flags.fallback
  for (const p of PLATFORMS) {
    const v = flags[p]
    if (v !== undefined) body[p] = v === false ? null : { url: v }
  }
  if (flags.title !== undefined) body.title = flags.title === '' ? null : flags.title
  if (flags.clearTags) body.tags = []
  else if (flags.tag) body.tags = flags.tag
  const code = shortCodeFlag(flags)
  if (code !== undefined) body.shortCode = code
  if (customDomainId !== undefined) body.customDomainId = customDomainId
  if (flags.force) body.force = forceFlag(body)
  if (flags.clickId !== undefined) body.appendClickId = flags.clickId
  if (flags.game !== undefined) body.gameId = flags.game === false ? null : flags.game
  if (flags.clearVariants && flags.variant)
    throw new UsageError('use either --variant or --clear-variants, not both')
  if (flags.clearVariants) body.variants = null
  else if (flags.variant) body.variants = flags.variant
  if (Object.keys(body).length === 0) throw new UsageError('nothing to update: pass at least one field flag')
  return body
}

/** Which platforms have their own target, as `ios,android` ('-': every visitor gets the fallback). */
const targetsOf = (s: SmartLink) => PLATFORMS.filter((p) => s[p] !== null).join(',') || '-'

export function smartLinkColumns(tty: boolean): Column<SmartLink>[] {
  return [
    { header: 'ID', value: (s) => s.id },
    { header: 'CODE', value: (s) => s.shortCode, only: 'tty' },
    { header: 'SHORT URL', value: (s) => s.shortUrl, only: 'piped' },
    { header: 'FALLBACK', value: (s) => s.fallbackUrl, fit: 'flex' },
    { header: 'TARGETS', value: targetsOf, drop: 1 },
    { header: 'TITLE', value: (s) => s.title, fit: 'flex', drop: 3 },
    { header: 'CLICKS', value: (s) => s.clicks, drop: 2 },
    { header: 'TAGS', value: (s) => s.tags.join(tty ? ', ' : ','), fit: 'wrap', drop: 4 },
    { header: 'CREATED', value: (s) => when(s.createdAt, tty), drop: 5 },
  ]
}

export function smartLinkFields(s: SmartLink, tty: boolean): Field[] {
  return [
    ['ID', s.id],
    ['SHORT URL', s.shortUrl],
    ['SHORT CODE', s.shortCode],
    ['FALLBACK', s.fallbackUrl],
    ...s.variants.map((v, i): Field => [`VARIANT ${i + 1}`, variantText(v)]),
    ['IOS', s.ios?.url ?? null],
    ['ANDROID', s.android?.url ?? null],
    ['DESKTOP', s.desktop?.url ?? null],
    ['CLICK ID', s.appendClickId ? 'appended' : 'not appended'],
    ['GAME', s.gameId],
    ['TITLE', s.title],
    ['TAGS', s.tags.join(tty ? ', ' : ',')],
    ['DOMAIN', s.customDomainId],
    ['CLICKS', s.clicks],
    ['CREATED', when(s.createdAt, tty)],
    ['UPDATED', when(s.updatedAt, tty)],
  ]
}

const ID_RE = /^sml_/

/** The smart link a reference names (id, short code or short URL); unknown: exit 5. */
export async function findSmartLink(client: LinkdClient, ref: string): Promise<SmartLink> {
  if (ID_RE.test(ref)) return client.smartLinks.get(ref)
  const code = codeOf(ref)
  const missing = () => new CliError(`no smart link with the id or short code "${ref}"`, EXIT.notFound)
  if (code.length === 0 || code.length > LINK_LIMITS.slugMax) throw missing()
  const found = pickByRef(ref, await withCode((q) => client.smartLinks.list(q), code), 'smart link')
  if (!found) {
    // Links and smart links share short codes: say so when the code is a link's.
    if ((await withCode((q) => client.links.list(q), code)).length)
      throw new CliError(
        `no smart link with the short code "${ref}": it is a link (linkctl links)`,
        EXIT.notFound,
      )
    throw missing()
  }
  return found
}

/** The id a reference names, without a request when it is already an id. */
export async function smartLinkIdOf(client: LinkdClient, ref: string): Promise<string> {
  return ID_RE.test(ref) ? ref : (await findSmartLink(client, ref)).id
}

/** The flags of `smart-links create` and `update`. */
export function smartLinkFieldOptions(cmd: Command, mode: 'create' | 'update'): Command {
  const target = (p: string) =>
    mode === 'create' ? `where ${p} visitors go` : `new target for ${p} visitors`
  cmd
    .option(
      '--fallback <url>',
      mode === 'create' ? 'where everyone else goes (required)' : 'new fallback URL',
    )
    .option('--ios <url>', target('iPhone and iPad'))
    .option('--android <url>', target('Android'))
    .option('--desktop <url>', target('Windows, macOS and Linux'))
    .option('--title <text>', mode === 'update' ? 'title ("" clears it)' : 'title')
    .option(
      '--tag <tag>',
      mode === 'update' ? 'tag (repeatable; replaces the tags)' : 'tag (repeatable)',
      collectTag,
    )
  shortCodeOptions(
    cmd,
    mode === 'update'
      ? `new short code (${SHORT_CODE_RULE}; shared with links); the old short URL stops working`
      : `short code (${SHORT_CODE_RULE}; shared with links)`,
  )
  cmd
    .option(
      '--domain <domain>',
      mode === 'create'
        ? 'verified custom domain for the short URL (name or dom_ id; default: the default domain)'
        : 'move to a verified custom domain (name or dom_ id; "shared": the shared domain)',
    )
    .option('--game <gameId>', 'the game this link promotes (its id, as linkctl games list shows it)')
    .option(
      '--variant <url=weight>',
      "split fallback, repeatable, 2-10 with weights adding up to 100: visitors without a target get one ('https://…/a=70')" +
        (mode === 'update' ? ' (replaces the variants)' : ''),
      variantArg,
    )
  // On update, --click-id comes first: then neither flag leaves a default (no change).
  if (mode === 'update') cmd.option('--click-id', 'append the click id again')
  cmd.option('--no-click-id', 'do not append the click id (linkd_click) to the targets')
  if (mode === 'update')
    cmd
      .option('--no-ios', 'send iPhone and iPad visitors to the fallback')
      .option('--no-android', 'send Android visitors to the fallback')
      .option('--no-desktop', 'send desktop visitors to the fallback')
      .option('--no-game', 'no game')
      .option('--clear-tags', 'remove every tag')
      .option('--clear-variants', 'remove the split fallback')
      .option('--force', FORCE_HELP)
  return cmd
}

/** A commander action for verbs whose first argument is a smart link reference. */
export const refAction = <O>(
  run: (opts: O & SmartLinkRefOpts, ctx: Ctx) => Promise<void>,
  extra?: ActionExtra,
) => action<O>(([ref], opts, ctx) => run({ ...opts, ref: ref ?? '' }, ctx), extra)
export const REF_HELP = 'smart link id (sml_...), short code or short URL'
