/**
 * What the `links` verbs share: the create/update flags, how commander parses them and the bodies
 * they become, and the PATCH that may move a short URL. How a link looks on the terminal:
 * display.ts; the verbs' link reference and its look-up: refs.ts.
 */
import { InvalidArgumentError, Option, type Command } from 'commander'
import type { CreateLinkBody, LinkRule, UpdateLinkBody } from '../../../contract/links.js'
import { LINK_LIMITS, LINK_RULE_LIMITS, REDIRECT_TYPES } from '../../../contract/limits.js'
import { parseRule } from '../../../format/link-rules.js'
import { parseVariant } from '../../../format/link-variants.js'
import type { LinkVariant } from '../../../contract/variants.js'
import type { Ctx } from '../../../session/context.js'
import { CliError, EXIT, isShortUrlInUse, UsageError } from '../../../session/exit-codes.js'
import { collectTag, expiryArg, noneOf, intArg, parseExpiry } from '../../parse.js'

/** Flags shared by `links create` and `links update`, as commander parses them. */
export interface LinkFlags {
  destination?: string
  title?: string
  /** The short code: `--short-code`, or its alias `--slug` (create: the custom code; update: a new one). */
  shortCode?: string
  slug?: string
  expiresAt?: string | null
  tag?: string[]
  meta?: Record<string, string>
  redirectType?: string
  /** create only: a verified custom domain (by name or dom_ id) the link goes on. */
  domain?: string
  /** update only */
  status?: 'active' | 'inactive'
  clearTags?: boolean
  clearMeta?: boolean
  /** `--no-expiry` sets this to false. */
  expiry?: boolean
  /** '' clears it (update). */
  expiredUrl?: string
  /** '' (commander's spelling of a parser's null): `none`, which clears it on update. */
  maxClicks?: number | ''
  startsAt?: string
  /** `--forward-query` / `--no-forward-query`. */
  forwardQuery?: boolean
  rule?: LinkRule[]
  clearRules?: boolean
  variant?: LinkVariant[]
  clearVariants?: boolean
  /** Read the password from stdin (first line). */
  passwordStdin?: boolean
  /** Ask for the password on the terminal without echo. */
  passwordPrompt?: boolean
  /** update: `--no-password` sets this to false (removes it); a value (hidden `--password`) is refused. */
  password?: boolean | string
  ogTitle?: string
  ogDescription?: string
  ogImage?: string
  /** update only: `--no-og` sets this to false (removes the preview). */
  og?: boolean
  /** update only: move the short URL even though it is in use. */
  force?: boolean
}

/**
 * `--rule '<conditions>=><url>'`, repeatable, in order: conditions are `type:value` joined by
 * commas, all must hold (`os:ios=>https://apps.apple.com/app/id1`,
 * `country:DE,device:mobile=>https://example.de/m`, `query:ref=tw=>https://example.com/tw`).
 */
export function ruleArg(value: string, previous: LinkRule[] | undefined): LinkRule[] {
  try {
    return parseRule(value, previous)
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message)
  }
}

/** `--variant '<url>=<weight>'`, repeatable: the split destinations, in order. */
export function variantArg(value: string, previous: LinkVariant[] | undefined): LinkVariant[] {
  try {
    return parseVariant(value, previous)
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message)
  }
}

/** `--max-clicks <n>`: a positive integer, or `none` (no limit). */
export function maxClicksArg(value: string): number | null {
  return value === 'none' ? null : intArg(LINK_RULE_LIMITS.maxClicksMin, LINK_RULE_LIMITS.maxClicksMax)(value)
}

/** `--starts-at <when>`: an ISO date/time or 30d/12h/90m/2w from now; `none` removes it. */
export function startsArg(value: string): string | null {
  return parseExpiry(value)
}

/** The link-option flags both verbs share, into a create or update body. */
function optionFields(flags: LinkFlags, mode: 'create' | 'update'): Partial<UpdateLinkBody> {
  if (flags.clearRules && flags.rule) throw new UsageError('use either --rule or --clear-rules, not both')
  const body: Partial<UpdateLinkBody> = {}
  if (flags.expiredUrl !== undefined)
    body.expiredUrl = flags.expiredUrl === '' ? (mode === 'update' ? null : undefined) : flags.expiredUrl
  if (flags.maxClicks !== undefined && (mode === 'update' || flags.maxClicks !== ''))
    body.maxClicks = noneOf(flags.maxClicks)
  if (flags.startsAt !== undefined && (mode === 'update' || flags.startsAt !== ''))
    body.startsAt = noneOf(flags.startsAt)
  if (flags.forwardQuery !== undefined) body.forwardQuery = flags.forwardQuery
  if (flags.clearRules) body.rules = []
  else if (flags.rule) body.rules = flags.rule
  if (flags.clearVariants && flags.variant)
    throw new UsageError('use either --variant or --clear-variants, not both')
  if (flags.clearVariants) body.variants = null
  else if (flags.variant) body.variants = flags.variant
  if (body.expiredUrl === undefined) delete body.expiredUrl
  const ogGiven = [flags.ogTitle, flags.ogDescription, flags.ogImage].some((v) => v !== undefined)
  if (flags.og === false && ogGiven) throw new UsageError('use either --og-* or --no-og, not both')
  if (flags.og === false) body.og = null
  else if (ogGiven)
    body.og = {
      ...(flags.ogTitle !== undefined && { title: flags.ogTitle }),
      ...(flags.ogDescription !== undefined && { description: flags.ogDescription }),
      ...(flags.ogImage !== undefined && { imageUrl: flags.ogImage }),
    }
  if (flags.password !== undefined && flags.password !== false)
    throw new UsageError(
      'linkctl takes no password as an argument (others on this machine can read it, and shell history keeps it): pipe it into --password-stdin or use --password-prompt',
    )
  if (flags.password === false) {
    if (flags.passwordStdin || flags.passwordPrompt)
      throw new UsageError('use either --password-stdin/--password-prompt or --no-password, not both')
    body.password = null
  }
  if (flags.passwordStdin && flags.passwordPrompt)
    throw new UsageError('use either --password-stdin or --password-prompt, not both')
  return body
}

/**
 * The password of `--password-stdin` (the first line of stdin) or `--password-prompt` (asked on
 * the terminal without echo, twice); undefined without either flag. Never a command-line value:
 * argv is visible to every user of the machine and kept in shell history.
 */
export async function readPassword(flags: LinkFlags, ctx: Ctx): Promise<string | undefined> {
  let password: string | undefined
  if (flags.passwordStdin) {
    if (ctx.stdin.isTTY === true)
      throw new UsageError(
        '--password-stdin reads a pipe: echo … | linkctl … (use --password-prompt on a terminal)',
      )
    let text = ''
    for await (const chunk of ctx.stdin) {
      text += String(chunk)
      if (text.length > 64 * 1024) break
    }
    password = text.split(/\r?\n/)[0] ?? ''
  } else if (flags.passwordPrompt) {
    if (!ctx.canPrompt)
      throw new UsageError(
        '--password-prompt needs a terminal; pipe the password into --password-stdin instead',
      )
    password = await ctx.prompt.secret('Link password: ')
    const again = await ctx.prompt.secret('Again: ')
    if (again !== password) throw new UsageError('the two passwords differ; nothing changed')
  } else return undefined
  if (password.length < LINK_RULE_LIMITS.passwordMin || password.length > LINK_RULE_LIMITS.passwordMax)
    throw new UsageError(
      `the password must be ${LINK_RULE_LIMITS.passwordMin}-${LINK_RULE_LIMITS.passwordMax} characters (got ${password.length})`,
    )
  return password
}

/** `--meta key=value`, repeatable: collected into one object (a later key wins). */
export function metaArg(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const eq = value.indexOf('=')
  if (eq <= 0) throw new InvalidArgumentError('expected key=value')
  return { ...(previous ?? {}), [value.slice(0, eq)]: value.slice(eq + 1) }
}

export function createBody(destination: string | undefined, flags: LinkFlags): CreateLinkBody {
  if (destination && flags.destination && destination !== flags.destination)
    throw new UsageError('give the destination URL once: as the argument or with --destination')
  const url = destination ?? flags.destination
  if (!url)
    throw new UsageError(
      'a destination URL is required: linkctl links create <url>, or --destination <url> (--url is the address of linkd)',
    )
  const body: CreateLinkBody = { destinationUrl: url }
  if (flags.title !== undefined && flags.title !== '') body.title = flags.title
  const code = shortCodeFlag(flags)
  if (code !== undefined) body.customSlug = code
  if (flags.expiresAt) body.expiresAt = flags.expiresAt
  if (flags.tag) body.tags = flags.tag
  if (flags.meta) body.metadata = flags.meta
  if (flags.redirectType) body.redirectType = Number(flags.redirectType) as CreateLinkBody['redirectType']
  if (flags.domain) {
    if (/^dom_/.test(flags.domain)) body.customDomainId = flags.domain
    else body.domain = flags.domain
  }
  return { ...body, ...(optionFields(flags, 'create') as Partial<CreateLinkBody>) }
}

/** The body of `links update`; `customDomainId` is the domain flag resolved to an id (or null). */
export function updateBody(flags: LinkFlags, customDomainId?: string | null): UpdateLinkBody {
  if (flags.clearTags && flags.tag) throw new UsageError('use either --tag or --clear-tags, not both')
  if (flags.clearMeta && flags.meta) throw new UsageError('use either --meta or --clear-meta, not both')
  if (flags.expiry === false && flags.expiresAt !== undefined)
    throw new UsageError('use either --expires-at or --no-expiry, not both')
  const body: UpdateLinkBody = {}
  if (flags.destination !== undefined) body.destinationUrl = flags.destination
  if (flags.title !== undefined) body.title = flags.title === '' ? null : flags.title
  if (flags.status) body.status = flags.status
  if (flags.expiry === false) body.expiresAt = null
  else if (flags.expiresAt !== undefined) body.expiresAt = noneOf(flags.expiresAt) ?? null
  if (flags.clearTags) body.tags = []
  else if (flags.tag) body.tags = flags.tag
  if (flags.clearMeta) body.metadata = {}
  else if (flags.meta) body.metadata = flags.meta
  if (flags.redirectType) body.redirectType = Number(flags.redirectType) as UpdateLinkBody['redirectType']
  Object.assign(body, optionFields(flags, 'update'))
  const code = shortCodeFlag(flags)
  if (code !== undefined) body.shortCode = code
  if (customDomainId !== undefined) body.customDomainId = customDomainId
  if (flags.force) body.force = forceFlag(body)
  if (Object.keys(body).length === 0 && !flags.passwordStdin && !flags.passwordPrompt)
    throw new UsageError('nothing to update: pass at least one field flag')
  return body
}

/** What a short code may be, for the flags' help. */
export const SHORT_CODE_RULE = `${LINK_LIMITS.slugMin}-${LINK_LIMITS.slugMax} letters, digits, - and _`

/**
 * `--short-code <code>`, the one name for a short code on every command that sets one (the API's
 * `shortCode`), and `--slug`, its alias (hidden; the help of --short-code names it).
 */
export function shortCodeOptions(cmd: Command, description: string): Command {
  return cmd
    .option('--short-code <code>', `${description}; alias --slug`)
    .addOption(new Option('--slug <code>').hideHelp())
}

/** The code of `--short-code` or `--slug`; both with different codes is a usage error. */
export function shortCodeFlag(flags: { shortCode?: string; slug?: string }): string | undefined {
  if (flags.shortCode !== undefined && flags.slug !== undefined && flags.shortCode !== flags.slug)
    throw new UsageError('give the short code once: --short-code (or its alias --slug)')
  return flags.shortCode ?? flags.slug
}

/**
 * The body fields a refusal may name, said as the flag that sets them: `customSlug` (create) and
 * `shortCode` (update) are `--short-code` (see `action`'s `flagOf`); smart links add theirs.
 */
export const SHORT_CODE_FLAG = { customSlug: '--short-code', shortCode: '--short-code' } as const

/**
 * A link's fields set by flags named otherwise (`og.title must be at most 200 characters` →
 * `--og-title …`); `expiresAt`, `maxClicks`… map by themselves (see `action`).
 */
export const LINK_FLAGS = {
  ...SHORT_CODE_FLAG,
  'tags[]': '--tag',
  'rules[]': '--rule',
  'variants[]': '--variant',
  'og.title': '--og-title',
  'og.description': '--og-description',
  'og.imageUrl': '--og-image',
} as const

/** `--force`: only with what moves the short URL. */
export function forceFlag(body: { shortCode?: string; customDomainId?: string | null }): true {
  if (body.shortCode === undefined && body.customDomainId === undefined)
    throw new UsageError('--force goes with --short-code or --domain')
  return true
}

export const FORCE_HELP = `change the short code or domain even though QR codes or clicks in the last ${LINK_LIMITS.inUseDays} days use the short URL (it then answers 404)`

/**
 * Sends a PATCH; when the short URL it moves is in use (QR codes, recent clicks), a terminal is
 * asked whether to move it anyway (then it is sent again with force), else the refusal says to
 * add --force (exit 6). `--json` never asks.
 */
export async function patchShortUrl<T>(ctx: Ctx, send: (force?: true) => Promise<T>): Promise<T> {
  try {
    return await send()
  } catch (err) {
    if (!isShortUrlInUse(err)) throw err
    if (ctx.canPrompt && !ctx.json) {
      if (await ctx.prompt.confirm(`${err.message}. Change it anyway?`)) return send(true)
      throw new CliError('aborted', EXIT.error)
    }
    throw new CliError(`${err.message} (HTTP 409)\n  add --force to change it anyway`, EXIT.conflict, {
      cause: err,
    })
  }
}

const REDIRECT_CHOICES = REDIRECT_TYPES.map(String)

/** The flags of `links create` and `links update` (update adds status and the clearing flags). */
export function linkFieldOptions(cmd: Command, mode: 'create' | 'update'): Command {
  // Not --url: that is linkctl's global flag (the daemon's address), wherever it is written.
  cmd
    .option(
      '-d, --destination <url>',
      mode === 'create' ? 'destination URL (or the argument)' : 'new destination URL',
    )
    .option('--title <text>', mode === 'update' ? 'title ("" clears it)' : 'title')
  shortCodeOptions(
    cmd,
    mode === 'create'
      ? `custom short code (${SHORT_CODE_RULE})`
      : `new short code (${SHORT_CODE_RULE}); the old short URL stops working`,
  )
  if (mode === 'create') {
    cmd.option(
      '--domain <domain>',
      'verified custom domain for the short URL (name or dom_ id; default: the default domain)',
    )
  }
  cmd
    .option('--expires-at <when>', 'expiry: ISO date/time, 30d/12h/90m/2w from now, or never', expiryArg)
    .option(
      '--tag <tag>',
      mode === 'update' ? 'tag (repeatable; replaces the tags)' : 'tag (repeatable)',
      collectTag,
    )
    .option(
      '--meta <key=value>',
      mode === 'update'
        ? 'metadata entry (repeatable; replaces the metadata)'
        : 'metadata entry (repeatable)',
      metaArg,
    )
    .addOption(
      new Option('--redirect-type <status>', 'HTTP status of the redirect').choices(REDIRECT_CHOICES),
    )
  cmd
    .option(
      '--expired-url <url>',
      mode === 'update'
        ? 'where the link sends visitors once expired, instead of 410 ("" removes it)'
        : 'where the link sends visitors once expired, instead of 410',
    )
    .option('--max-clicks <n>', 'expire after this many human clicks (none: no limit)', maxClicksArg)
    .option(
      '--starts-at <when>',
      'live from: ISO date/time or 30d/12h/90m/2w from now (none: now)',
      startsArg,
    )
    .option('--forward-query', "pass the visitor's query string on to the destination (the default)")
    .option('--no-forward-query', "drop the visitor's query string")
    .option(
      '--rule <conditions=>url>',
      "redirect rule, repeatable, first match wins: 'os:ios=>https://…', 'country:DE,device:mobile=>https://…'" +
        (mode === 'update' ? ' (replaces the rules)' : ''),
      ruleArg,
    )
    .option(
      '--variant <url=weight>',
      "split destination, repeatable, 2-10 with weights adding up to 100: --variant 'https://…/a=70' --variant 'https://…/b=30'" +
        (mode === 'update' ? ' (replaces the variants)' : ''),
      variantArg,
    )
  cmd
    // Hidden: `--password <pw>` is what people type first; it gets the way that keeps it secret.
    .addOption(new Option('--password [value]').hideHelp())
    .option('--password-stdin', 'protect the link with a password read from stdin (first line)')
    .option('--password-prompt', 'protect the link with a password asked on the terminal (not echoed)')
    .option(
      '--og-title <text>',
      `preview title for link-preview crawlers (up to ${LINK_RULE_LIMITS.ogTitleMax} characters)`,
    )
    .option(
      '--og-description <text>',
      `preview description (up to ${LINK_RULE_LIMITS.ogDescriptionMax} characters)`,
    )
    .option('--og-image <url>', 'preview image URL (http:// or https://)')
  if (mode === 'update') {
    cmd
      .option('--no-password', 'remove the password')
      .option('--no-og', 'remove the preview (crawlers get the redirect again)')
      .option('--clear-rules', 'remove every rule')
      .option('--clear-variants', 'remove the split destinations')
      .option(
        '--domain <domain>',
        'move to a verified custom domain (name or dom_ id; "shared": the shared domain)',
      )
      .addOption(
        new Option('--status <status>', 'enable or disable the link').choices(['active', 'inactive']),
      )
      .option('--clear-tags', 'remove every tag')
      .option('--clear-meta', 'remove every metadata entry')
      .option('--no-expiry', 'remove the expiry date')
      .option('--force', FORCE_HELP)
  }
  return cmd
}
