/**
 * Audit names derived from the route table, so a new write route is audited without a list to
 * keep: `POST /api/use/links` → `link.create`, `PATCH /api/use/links/:id` → `link.update`,
 * `POST /api/keys/:id/revoke` → `key.revoke`, `PUT /api/domains/:id/tls` → `domain.tls.update`,
 * `POST /api/v1/admin/fraud/games/:gameId/rules` (201) → `fraud_rule.create`. OVERRIDES holds
 * the few routes whose derived name reads wrong.
 */

export interface AuditName {
  action: string
  resourceType: string
  /** The route parameter naming the resource; absent: the response's `id`, if any. */
  idParam?: string
}

/** Leading path parts that only say which API a route is in. */
const PREFIXES = ['/api/v1/admin/', '/api/v1/gaming/', '/api/v1/', '/api/use/', '/api/team/', '/api/']

/** Path words that name nothing (`/api/webhooks/utilities/validate-url`). */
const FILLERS = new Set(['utilities'])

/** Resource words whose singular would be wrong or unclear. */
const NOUNS: Record<string, string> = {
  deliveries: 'webhook_delivery',
  blocklist: 'blocklist_entry',
}

/** Action words that read better spelled out. */
const VERBS: Record<string, string> = { bulk: 'bulk_create', 'sdk-key': 'regenerate_sdk_key' }

/** Routes named by hand ("METHOD url" as registered). */
const OVERRIDES: Record<string, Omit<AuditName, 'idParam'>> = {
  // Its bulk is enable, disable or delete of several webhooks, not a create.
  'POST /api/webhooks/bulk': { action: 'webhook.bulk_update', resourceType: 'webhook' },
  'DELETE /api/team/members/:id': { action: 'member.remove', resourceType: 'member' },
  'POST /api/team/invitations/accept': { action: 'invitation.accept', resourceType: 'invitation' },
}

const METHOD_VERBS: Record<string, string> = {
  PATCH: 'update',
  PUT: 'update',
  DELETE: 'delete',
  POST: 'create',
}

const snake = (word: string) => word.replaceAll('-', '_')

export function singular(word: string): string {
  if (NOUNS[word]) return NOUNS[word]
  const w = snake(word)
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`
  if (/(ss|sh|ch|x)es$/.test(w)) return w.slice(0, -2)
  if (w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1)
  return w
}

/**
 * The name of a write route. `creates`: its success status is 201 or 202, so a trailing word is
 * the collection it adds to (`…/:gameId/rules`) and not an action (`…/:id/revoke`).
 */
export function auditName(method: string, url: string, creates: boolean): AuditName {
  const path = url.split('?')[0] ?? url
  const parts = path
    .slice((PREFIXES.find((p) => path.startsWith(p)) ?? '/').length)
    .split('/')
    .filter((s) => s.length > 0 && !FILLERS.has(s))
  const lastParam = parts.reduce((at, s, i) => (s.startsWith(':') ? i : at), -1)
  const idParam = lastParam >= 0 ? parts[lastParam]!.slice(1) : undefined
  const tail = parts.slice(lastParam + 1)
  // An area word before the nouns (fraud, skan, gdpr) qualifies the resource: fraud_rule.
  const first = parts[0] ?? 'api'
  const area = parts.length > 1 && !parts[1]!.startsWith(':') && (parts.length > 2 || creates) ? first : ''
  const qualify = (noun: string) =>
    area && area !== noun ? `${snake(area)}_${singular(noun)}` : singular(noun)
  const override = OVERRIDES[`${method} ${path}`]

  let resourceType: string
  let verb: string
  let id: string | undefined = idParam
  if (creates && tail.length > 0) {
    // POST …/rules → the new rule; its id is in the response.
    resourceType = qualify(tail[tail.length - 1]!)
    verb = 'create'
    id = undefined
  } else if (lastParam < 0) {
    // No id in the path: POST /links/bulk, /webhooks/validate-url.
    resourceType = singular(first)
    const rest = parts.slice(1)
    verb = rest.length ? rest.map((w) => VERBS[w] ?? snake(w)).join('_') : METHOD_VERBS[method]!
  } else {
    resourceType = qualify(parts[lastParam - 1] ?? first)
    const sub = tail.map((w) => VERBS[w] ?? snake(w)).join('_')
    verb = !sub ? METHOD_VERBS[method]! : method === 'POST' ? sub : `${sub}.${METHOD_VERBS[method]!}`
  }
  const name = override ?? { action: `${resourceType}.${verb}`, resourceType }
  return { ...name, ...(id ? { idParam: id } : {}) }
}
