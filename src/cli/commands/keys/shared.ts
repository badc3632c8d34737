/** How API keys look on the terminal, and how key flags become request bodies. */
import type {
  ApiKey,
  ApiKeyWithSecret,
  CreateKeyBody,
  KeyActivity,
  UpdateKeyBody,
} from '../../../contract/keys.js'
import { PRESETS, SCOPES, type Preset } from '../../../contract/scopes.js'
import type { TimePeriod } from '../../../contract/limits.js'
import { round, when, type Column, type Field } from '../../output.js'
import { UsageError } from '../../exit-codes.js'

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
  if (!flags.name || flags.name.trim() === '') throw new UsageError('--name is required')
  const permissions = scopesFrom(flags)
  if (permissions && flags.preset)
    throw new UsageError('use either --preset or --permissions/--scope, not both')
  const body: CreateKeyBody = { name: flags.name }
  if (flags.description !== undefined) body.description = flags.description
  if (flags.expiresAt !== undefined) body.expiresAt = flags.expiresAt
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
  if (flags.expiresAt !== undefined) body.expiresAt = flags.expiresAt
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
  if (!tty || permissions.length <= 3) return permissions.join(',')
  if (permissions.length === SCOPES.length && SCOPES.every((s) => permissions.includes(s))) {
    return `all (${permissions.length})`
  }
  return `${permissions.length} scopes`
}

export function keyColumns(tty: boolean): Column<ApiKey>[] {
  return [
    { header: 'ID', value: (k) => k.id },
    { header: 'NAME', value: (k) => k.name },
    { header: 'STATUS', value: (k) => k.status },
    { header: 'ENV', value: (k) => k.environment },
    { header: 'PREVIEW', value: (k) => k.preview },
    { header: 'SCOPES', value: (k) => scopeSummary(k.permissions, tty) },
    { header: 'RATE LIMIT', value: (k) => `${k.requestLimit}/${k.timePeriod}` },
    { header: 'LAST USED', value: (k) => when(k.lastUsedAt, tty) },
    { header: 'EXPIRES', value: (k) => when(k.expiresAt, tty) },
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
  if ('key' in k) fields.splice(1, 0, ['KEY', k.key])
  return fields
}

export function activityColumns(tty: boolean): Column<KeyActivity>[] {
  return [
    { header: 'TIME', value: (a) => when(a.timestamp, tty, 'second') },
    { header: 'METHOD', value: (a) => a.method },
    { header: 'ENDPOINT', value: (a) => a.endpoint },
    { header: 'STATUS', value: (a) => a.statusCode },
    { header: 'MS', value: (a) => round(a.responseTimeMs, 1) },
    { header: 'IP', value: (a) => a.ip },
    { header: 'COUNTRY', value: (a) => a.country },
    { header: 'ERROR', value: (a) => a.error },
  ]
}
