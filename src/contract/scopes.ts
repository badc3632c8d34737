/** Permission scopes of API keys (docs/reference/keys.md lists them). */
export const SCOPES = [
  'links:read',
  'links:write',
  'links:delete',
  'analytics:read',
  'qrCodes:read',
  'qrCodes:write',
  'qrCodes:delete',
  'domains:read',
  'domains:write',
  'domains:delete',
  'webhooks:read',
  'webhooks:write',
  'smartLinks:read',
  'smartLinks:write',
  'smartLinks:delete',
  'keys:read',
  'keys:write',
  'games:read',
  'games:write',
  'fraud:read',
  'fraud:write',
  'skan:read',
  'skan:write',
  'gdpr:read',
  'gdpr:write',
  'team:read',
  'team:write',
  'safety:read',
  'safety:write',
  'exports:read',
  'exports:write',
] as const
export type Scope = (typeof SCOPES)[number]

/** The public API reference spells the QR scopes `qr:*`; both spellings are accepted. */
export const SCOPE_ALIASES: Readonly<Record<string, Scope>> = {
  'qr:read': 'qrCodes:read',
  'qr:write': 'qrCodes:write',
  'qr:delete': 'qrCodes:delete',
}
/** Every spelling accepted on input. */
export const ACCEPTED_SCOPES: readonly string[] = [...SCOPES, ...Object.keys(SCOPE_ALIASES)]

export const PRESETS = {
  'read-only': SCOPES.filter((s) => s.endsWith(':read')),
  full: [...SCOPES],
  'analytics-only': ['analytics:read'],
} as const satisfies Record<string, readonly Scope[]>
export type Preset = keyof typeof PRESETS
export const PRESET_NAMES = Object.keys(PRESETS) as Preset[]

/** Canonical form of a scope string, or undefined when it is not a scope. */
export function canonicalScope(scope: string): Scope | undefined {
  if ((SCOPES as readonly string[]).includes(scope)) return scope as Scope
  return SCOPE_ALIASES[scope]
}

/** Canonical, de-duplicated, sorted in declaration order. Unknown strings are dropped. */
export function normalizeScopes(scopes: readonly string[]): Scope[] {
  const set = new Set(scopes.map(canonicalScope).filter((s): s is Scope => s !== undefined))
  return SCOPES.filter((s) => set.has(s))
}

/** Team roles, strongest first (contract: Teams). */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const
export type Role = (typeof ROLES)[number]

/** How strong a role is: a caller may grant or invite up to its own rank. */
export const ROLE_RANK: Readonly<Record<Role, number>> = { owner: 3, admin: 2, member: 1, viewer: 0 }

/** A role with its article, for messages: "an admin", "a viewer". */
export const aRole = (role: Role): string => `${role === 'owner' || role === 'admin' ? 'an' : 'a'} ${role}`

/**
 * Whether a member of role `actor` may act on another member of role `target`: change its role,
 * remove it, or touch its keys. Owners act on anyone, admins on anyone but owners, members and
 * viewers on nobody else (their own keys only).
 */
export function mayActOnMember(actor: Role, target: Role): boolean {
  return actor === 'owner' || (actor === 'admin' && target !== 'owner')
}

/**
 * The scopes a role allows: viewer only `*:read`; member everything but `team:write` (and `keys:*`
 * on its own keys only, a rule of the keys module); admin and owner everything.
 */
export const ROLE_SCOPES: Readonly<Record<Role, readonly Scope[]>> = {
  owner: SCOPES,
  admin: SCOPES,
  member: SCOPES.filter((s) => s !== 'team:write'),
  viewer: SCOPES.filter((s) => s.endsWith(':read')),
}

/** A key's effective scopes: its own scopes within its member's role. */
export function effectiveScopes(permissions: readonly string[], role: Role): Scope[] {
  const allowed = new Set(ROLE_SCOPES[role])
  return normalizeScopes(permissions).filter((s) => allowed.has(s))
}
