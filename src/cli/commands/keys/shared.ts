/**
 * What the `keys` verbs share: the create/update flags and the bodies they become, how a key
 * looks on the terminal, and the state transitions (revoke, activate, deactivate).
 */
import { Option, type Command } from 'commander'
import type {
  ApiKey,
  ApiKeyWithSecret,
  CreateKeyBody,
  KeyActivity,
  UpdateKeyBody,
} from '../../../contract/keys.js'
import { ACCEPTED_SCOPES, PRESET_NAMES, PRESETS, SCOPES, type Preset } from '../../../contract/scopes.js'
import { KEY_ENVIRONMENTS, KEY_LIMITS, TIME_PERIODS, type TimePeriod } from '../../../contract/limits.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import {
  countryName,
  emit,
  note,
  printRecord,
  round,
  warn,
  when,
  type Column,
  type Field,
} from '../../output.js'
import { collect, commaChoices, expiryArg, noneOf, intArg } from '../../parse.js'
import { missingOption, UsageError } from '../../../session/exit-codes.js'
import { confirmOrStop, shout } from '../../confirm.js'
import { keySourceName } from '../../key-source.js'

/** Flags shared by `keys create` and `keys update`, as commander parses them. */
export interface KeyFlags {
  name?: string
  description?: string
  expiresAt?: string | null
  permissions?: string[]
  scope?: string[]
  preset?: Preset
  requestLimit?: number
  timePeriod?: TimePeriod
  allowedIp?: string[]
  allowedOrigin?: string[]
  environment?: 'live' | 'test'
  clearAllowedIps?: boolean
  clearAllowedOrigins?: boolean
}

function scopesFrom(flags: KeyFlags): string[] | undefined {
  if (flags.permissions === undefined && flags.scope === undefined) return undefined
  return [...new Set([...(flags.permissions ?? []), ...(flags.scope ?? [])])]
}

export function createBody(flags: KeyFlags): CreateKeyBody {
  if (!flags.name || flags.name.trim() === '') throw missingOption('--name <name>')
  const permissions = scopesFrom(flags)
  if (permissions && flags.preset)
    throw new UsageError('use either --preset or --permissions/--scope, not both')
  const body: CreateKeyBody = { name: flags.name }
  if (flags.description !== undefined) body.description = flags.description
  const expiresAt = noneOf(flags.expiresAt)
  if (expiresAt) body.expiresAt = expiresAt
  if (permissions) body.permissions = permissions
  if (flags.preset) body.preset = flags.preset
  if (flags.requestLimit !== undefined) body.requestLimit = flags.requestLimit
  if (flags.timePeriod) body.timePeriod = flags.timePeriod
  if (flags.allowedIp) body.allowedIps = flags.allowedIp
  if (flags.allowedOrigin) body.allowedOrigins = flags.allowedOrigin
  if (flags.environment) body.environment = flags.environment
  return body
}

export function updateBody(flags: KeyFlags): UpdateKeyBody {
  const permissions = scopesFrom(flags)
  if (permissions && flags.preset)
    throw new UsageError('use either --preset or --permissions/--scope, not both')
  const body: UpdateKeyBody = {}
  if (flags.name !== undefined) body.name = flags.name
  if (flags.description !== undefined) body.description = flags.description === '' ? null : flags.description
  if (flags.expiresAt !== undefined) body.expiresAt = noneOf(flags.expiresAt) ?? null
  if (permissions) body.permissions = permissions
  else if (flags.preset) body.permissions = [...PRESETS[flags.preset]]
  if (flags.requestLimit !== undefined) body.requestLimit = flags.requestLimit
  if (flags.timePeriod) body.timePeriod = flags.timePeriod
  if (flags.clearAllowedIps) body.allowedIps = []
  else if (flags.allowedIp) body.allowedIps = flags.allowedIp
  if (flags.clearAllowedOrigins) body.allowedOrigins = []
  else if (flags.allowedOrigin) body.allowedOrigins = flags.allowedOrigin
  if (Object.keys(body).length === 0) throw new UsageError('nothing to update: pass at least one field flag')
  return body
}

/** Scopes: the whole list when piped, a summary in a table. */
export function scopeSummary(permissions: readonly string[], tty: boolean): string {
  if (!tty) return permissions.join(',')
  if (permissions.length <= 3) return permissions.join(', ')
  if (permissions.length === SCOPES.length && SCOPES.every((s) => permissions.includes(s))) {
    return `all (${permissions.length})`
  }
  return `${permissions.length} scopes`
}

export function keyColumns(tty: boolean): Column<ApiKey>[] {
  return [
    { header: 'ID', value: (k) => k.id },
    { header: 'NAME', value: (k) => k.name, fit: 'flex' },
    { header: 'STATUS', value: (k) => k.status },
    { header: 'ENV', value: (k) => k.environment, drop: 4 },
    { header: 'PREVIEW', value: (k) => k.preview, drop: 3 },
    { header: 'SCOPES', value: (k) => scopeSummary(k.permissions, tty), fit: 'wrap', drop: 1 },
    { header: 'RATE LIMIT', value: (k) => `${k.requestLimit}/${k.timePeriod}`, drop: 5 },
    { header: 'LAST USED', value: (k) => when(k.lastUsedAt, tty), drop: 2 },
    { header: 'EXPIRES', value: (k) => when(k.expiresAt, tty), drop: 6 },
  ]
}

export function keyFields(k: ApiKey | ApiKeyWithSecret, tty: boolean): Field[] {
  const fields: Field[] = [
    ['ID', k.id],
    ['NAME', k.name],
    ['DESCRIPTION', k.description],
    ['STATUS', k.status],
    ['ENVIRONMENT', k.environment],
    ['PREVIEW', k.preview],
    ['SCOPES', k.permissions.join(tty ? ', ' : ',')],
    ['RATE LIMIT', `${k.requestLimit}/${k.timePeriod}`],
    ['ALLOWED IPS', k.allowedIps.join(',')],
    ['ALLOWED ORIGINS', k.allowedOrigins.join(',')],
    ['EXPIRES', when(k.expiresAt, tty)],
    ['CREATED', when(k.createdAt, tty)],
    ['UPDATED', when(k.updatedAt, tty)],
    ['LAST USED', when(k.lastUsedAt, tty)],
    ['LAST IP', k.lastUsedIp],
    ['REVOKED', when(k.revokedAt, tty)],
    ['REQUESTS', k.usage.totalRequests],
    ['TODAY', k.usage.requestsToday],
    ['THIS MONTH', k.usage.requestsThisMonth],
  ]
  return fields
}

/**
 * A key with its one-time value (create, regenerate): the value first, alone on its line (bold
 * green on a colour terminal) so it can be copied or piped (`| head -1`), then the other fields;
 * the whole key as JSON with --json. `warning` goes to stderr after it.
 */
export async function printNewKey(ctx: Ctx, key: ApiKeyWithSecret, warning: string): Promise<void> {
  await emit(ctx, key, async () => {
    ctx.stdout.write(ctx.color ? `\x1b[1;32m${key.key}\x1b[0m\n` : `${key.key}\n`)
    await printRecord(ctx, keyFields(key, ctx.isTTY))
  })
  warn(ctx, warning)
}

export function activityColumns(tty: boolean): Column<KeyActivity>[] {
  return [
    { header: 'TIME', value: (a) => when(a.timestamp, tty, 'second') },
    { header: 'METHOD', value: (a) => a.method },
    { header: 'ENDPOINT', value: (a) => a.endpoint, fit: 'flex' },
    { header: 'STATUS', value: (a) => a.statusCode },
    { header: 'MS', value: (a) => round(a.responseTimeMs, 1), drop: 4 },
    { header: 'IP', value: (a) => a.ip, drop: 2 },
    { header: 'COUNTRY', value: (a) => countryName(a.country), drop: 1 },
    { header: 'ERROR', value: (a) => a.error, fit: 'flex', drop: 3 },
  ]
}

/** A verb that names one key by id. */
export interface IdOpts {
  id: string
}

/** A verb that takes a key out of use: asks first (or needs --yes). */
export interface GuardedOpts extends IdOpts {
  yes?: boolean
}

export type GuardedVerb = 'revoke' | 'deactivate' | 'delete'
const CONSEQUENCE: Record<GuardedVerb, string> = {
  revoke: 'It stops working for good; this cannot be undone.',
  deactivate: 'Requests with it get 401 until a key with its scopes activates it again.',
  delete: 'This cannot be undone.',
}

/**
 * Before revoke, deactivate or delete: a loud warning when the target is the key this command
 * authenticates with (found with POST /api/keys/test), then the confirmation (--yes without a TTY).
 */
export async function confirmKeyAction(verb: GuardedVerb, opts: GuardedOpts, ctx: Ctx): Promise<void> {
  const action = `${verb} key ${opts.id}`
  if (!opts.yes && !ctx.canPrompt) await confirmOrStop(ctx, { action, question: '' })
  const apiKey = await requireKey(ctx)
  const client = await ctx.client()
  // The name makes the question clearer; a key with keys:write but not keys:read asks by id.
  const [name, inUse] = await Promise.all([
    client.keys.get(opts.id).then(
      (k) => `${k.name} (${k.id})`,
      (err: unknown) => {
        if ((err as { status?: number }).status === 403) return opts.id
        throw err
      },
    ),
    client.keys.test(apiKey),
  ])
  if (inUse.key?.id === opts.id) {
    shout(
      ctx,
      `${opts.id} is the key linkctl is using (from ${keySourceName(await ctx.target())}); after this, ` +
        'commands with it fail with 401: log in with another key first (linkctl login)',
    )
  }
  const title = `${verb[0]!.toUpperCase()}${verb.slice(1)}`
  await confirmOrStop(ctx, {
    yes: opts.yes,
    action,
    question: `${title} API key ${name}? ${CONSEQUENCE[verb]}`,
  })
}

export const ONCE_WARNING = 'this is the only time the full key is shown: store it now'

export type Transition = 'revoke' | 'activate' | 'deactivate'
const DONE: Record<Transition, string> = {
  revoke: 'Revoked',
  activate: 'Activated',
  deactivate: 'Deactivated',
}

/**
 * revoke, activate or deactivate: the key's new state as a note, or the key with --json. Revoke
 * and deactivate ask first.
 */
export async function transition(verb: Transition, opts: GuardedOpts, ctx: Ctx): Promise<void> {
  if (verb === 'activate') await requireKey(ctx)
  else await confirmKeyAction(verb, opts, ctx)
  const key = await (await ctx.client()).keys[verb](opts.id)
  if (ctx.json) await emit(ctx, key, () => undefined)
  else note(ctx, `${DONE[verb]} key ${key.name} (${key.id}); status: ${key.status}`)
}

/** `-y, --yes` of the verbs that ask first. */
export function yesOption(cmd: Command): Command {
  return cmd.option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
}

/** The repeatable flags' fields, for a refusal (`allowedOrigins.1` → `--allowed-origin notaurl`). */
export const KEY_FLAGS = { 'allowedIps[]': '--allowed-ip', 'allowedOrigins[]': '--allowed-origin' }

/** The flags of `keys create` and `keys update` (create: a mandatory name and the environment). */
export function keyFieldOptions(cmd: Command, mode: 'create' | 'update'): Command {
  const name = new Option('--name <name>', `key name (up to ${KEY_LIMITS.nameMax} characters)`)
  cmd
    .addOption(mode === 'create' ? name.makeOptionMandatory() : name)
    .option('--description <text>', mode === 'update' ? 'description ("" clears it)' : 'description')
    .option('--expires-at <when>', 'expiry: ISO date/time, 30d/12h/90m/2w from now, or never', expiryArg)
    .option(
      '--permissions <scopes>',
      'comma-separated scopes, e.g. links:read,links:write',
      commaChoices(ACCEPTED_SCOPES),
    )
    .addOption(
      new Option(
        '--scope <scope>',
        mode === 'update'
          ? 'a scope (repeatable): the key gets the scopes given, no others'
          : 'a scope (repeatable)',
      )
        .choices(ACCEPTED_SCOPES)
        .argParser(commaChoices(ACCEPTED_SCOPES)),
    )
    .addOption(
      new Option(
        '--preset <preset>',
        mode === 'update' ? 'replace scopes with a preset' : 'scope preset',
      ).choices(PRESET_NAMES),
    )
    .option('--request-limit <n>', 'requests allowed per time period', intArg(1, KEY_LIMITS.requestLimitMax))
    .addOption(new Option('--time-period <period>', 'rate-limit window').choices(TIME_PERIODS))
    .option('--allowed-ip <ip>', 'allow this IP or CIDR range (repeatable; none = any IP)', collect)
    .option('--allowed-origin <origin>', 'allowed origin URL (repeatable)', collect)
  if (mode === 'create') {
    cmd.addOption(new Option('--environment <env>', 'key environment').choices(KEY_ENVIRONMENTS))
  } else {
    cmd.option('--clear-allowed-ips', 'remove every allowed IP (any IP may use the key)')
    cmd.option('--clear-allowed-origins', 'remove every allowed origin')
  }
  return cmd
}
