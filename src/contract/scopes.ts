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
