/**
 * What the Home screen shows, loaded in one poll: health and jobs, the totals the key may read,
 * and the events seen since the last poll (new links, clicks, jobs run, webhooks failing).
 */
import type { Health } from '../../contract/health.js'
import type { Link } from '../../contract/links.js'
import { DAY_MS } from '../../contract/numbers.js'
import type { TuiClient } from '../api.js'

export interface Totals {
  links?: number
  /** The organization's human clicks on the daemon's current UTC day, over all its links. */
  clicksToday?: number
  webhooksFailing?: number
  domainsNeedingAttention?: number
  games?: number
}

export interface HomeSnapshot {
  health: Health
  totals: Totals
  /** Newest links and the most clicked ones, to tell what changed between polls. */
  newest: Link[]
  top: Link[]
  webhookFailures: Map<string, { name: string; failing: boolean }>
}

const SOON_MS = 14 * DAY_MS

async function readiness(client: TuiClient): Promise<Health> {
  try {
    return await client.ready()
  } catch (err) {
    // 503 when not ready: the body says why.
    const e = err as { name?: string; status?: number; body?: unknown }
    if (e.name === 'ApiError' && e.status === 503) return e.body as Health
    throw err
  }
}

export async function loadHome(
  client: TuiClient,
  can: (scope: string) => boolean,
  now: number,
  /** False when the daemon has gaming turned off: no games total asked. */
  gaming = true,
): Promise<HomeSnapshot> {
  const none = Promise.resolve(undefined)
  const [health, newest, top, webhooks, domains, games, clicks] = await Promise.all([
    readiness(client),
    can('links:read') ? client.links.list({ limit: 10, sortBy: 'createdAt', sortOrder: 'desc' }) : none,
    can('links:read') ? client.links.list({ limit: 10, sortBy: 'clicks', sortOrder: 'desc' }) : none,
    can('webhooks:read') ? client.webhooks.list({ limit: 100 }) : none,
    can('domains:read') ? client.domains.list({ limit: 100 }) : none,
    gaming && can('games:read') ? client.games.list({ limit: 10 }) : none,
    // From a day before this machine's now: the last day of the answer is the daemon's today,
    // even when the two clocks disagree about the date (by less than a day).
    can('analytics:read')
      ? client.analytics.clicks({ startDate: new Date(now - DAY_MS).toISOString() })
      : none,
  ])
  const totals: Totals = {}
  if (newest) totals.links = newest.total
  if (clicks) totals.clicksToday = clicks.days.at(-1)?.clicks ?? 0
  const webhookFailures = new Map<string, { name: string; failing: boolean }>()
  if (webhooks) {
    for (const w of webhooks.data)
      webhookFailures.set(w.id, {
        name: w.name,
        failing: w.status === 'suspended' || w.consecutiveFailures > 0 || w.failedAttempts > 0,
      })
    totals.webhooksFailing = [...webhookFailures.values()].filter((w) => w.failing).length
  }
  if (domains)
    totals.domainsNeedingAttention = domains.data.filter(
      (d) =>
        d.verificationStatus !== 'verified' ||
        (d.sslStatus !== 'active' && d.sslStatus !== 'renewing') ||
        (d.sslExpiresAt !== null && Date.parse(d.sslExpiresAt) - now < SOON_MS),
    ).length
  if (games) totals.games = games.total
  return { health, totals, newest: newest?.data ?? [], top: top?.data ?? [], webhookFailures }
}

/** The events between two snapshots, newest last, as lines for the feed. */
export function eventsBetween(before: HomeSnapshot | undefined, after: HomeSnapshot, at: string): string[] {
  if (!before) return []
  const lines: string[] = []
  const known = new Set(before.newest.map((l) => l.id))
  const oldest = before.newest.at(-1)?.createdAt ?? ''
  for (const l of [...after.newest].reverse())
    if (!known.has(l.id) && l.createdAt >= oldest)
      lines.push(`${at} link created ${l.shortCode} → ${l.destinationUrl}`)
  const clicksBefore = new Map([...before.top, ...before.newest].map((l) => [l.id, l.clicks]))
  for (const l of after.top) {
    const was = clicksBefore.get(l.id)
    if (was !== undefined && l.clicks > was) lines.push(`${at} +${l.clicks - was} clicks on ${l.shortCode}`)
  }
  const jobsBefore = new Map((before.health.jobs ?? []).map((j) => [j.name, j.lastRunAt]))
  for (const j of after.health.jobs ?? []) {
    if (j.lastRunAt && jobsBefore.has(j.name) && jobsBefore.get(j.name) !== j.lastRunAt)
      lines.push(`${at} job ${j.name} ran: ${j.lastStatus ?? '?'}${j.lastError ? ` (${j.lastError})` : ''}`)
  }
  for (const [id, w] of after.webhookFailures) {
    const was = before.webhookFailures.get(id)
    if (was && was.failing !== w.failing)
      lines.push(`${at} webhook ${w.name} ${w.failing ? 'is failing' : 'recovered'}`)
  }
  if (before.health.status !== after.health.status) lines.push(`${at} daemon is now ${after.health.status}`)
  return lines
}
