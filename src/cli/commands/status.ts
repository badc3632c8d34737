/** `linkctl status`: daemon health and readiness, versions, and who the configured key is. */
import type { Command } from 'commander'
import type { Discovery, Health, JobStatus } from '../../contract/health.js'
import type { KeyTestResult } from '../../contract/keys.js'
import { action, jsonOption } from '../action.js'
import type { Ctx } from '../../session/context.js'
import { CliError, EXIT } from '../../session/exit-codes.js'
import { uptime } from '../../format/uptime.js'
import { emit, maskKey, printRecord, printRows, when, type Field } from '../output.js'
import { packageVersion } from '../../version.js'

export interface StatusReport {
  cli: { version: string }
  /** profile is null when flags and environment gave everything (no profile consulted). */
  target: { url: string; profile: string | null; urlFrom: string; apiKeyFrom: string }
  daemon: Health
  /** The optional parts this linkd has (its discovery document's `features`). */
  features: Discovery['features']
  ready: { ready: boolean; checks: Health['checks'] | null; jobs: JobStatus[] }
  auth: (KeyTestResult & { keyPreview: string }) | null
}

async function readiness(ctx: Ctx): Promise<StatusReport['ready']> {
  const [client, { ApiError }] = await Promise.all([ctx.client(), import('../../client/index.js')])
  try {
    const r = await client.ready()
    return { ready: r.status === 'ok', checks: r.checks ?? null, jobs: r.jobs ?? [] }
  } catch (err) {
    // 503 when not ready: the body may say why; anything else propagates.
    if (!(err instanceof ApiError) || err.status !== 503) throw err
    const body = err.body as unknown as Partial<Health>
    return { ready: false, checks: body.checks ?? null, jobs: body.jobs ?? [] }
  }
}

export async function runStatus(_opts: object, ctx: Ctx): Promise<void> {
  const target = await ctx.target()
  const client = await ctx.client()
  const [daemon, ready, discovery] = await Promise.all([client.health(), readiness(ctx), client.discovery()])
  const auth = target.apiKey
    ? { ...(await client.keys.test(target.apiKey)), keyPreview: maskKey(target.apiKey) }
    : null
  const report: StatusReport = {
    cli: { version: packageVersion() },
    target: {
      url: target.url,
      profile: target.sources.profile === 'none' ? null : target.profile,
      urlFrom: target.sources.url,
      apiKeyFrom: target.sources.apiKey,
    },
    daemon,
    features: discovery.features,
    ready,
    auth,
  }
  await emit(ctx, report, () => printStatus(ctx, report))
  if (auth && !auth.valid)
    throw new CliError(`the configured key is not valid: ${auth.reason ?? 'unknown'}`, EXIT.auth)
}

async function printStatus(ctx: Ctx, r: StatusReport): Promise<void> {
  const fields: Field[] = [
    ['URL', `${r.target.url} (from ${r.target.urlFrom})`],
    ['PROFILE', r.target.profile ?? 'none (flags and environment)'],
    ['DAEMON', `${r.daemon.status}, linkd ${r.daemon.version}, up ${uptime(r.daemon.uptimeSeconds)}`],
    [
      'READY',
      (r.ready.ready ? 'yes' : 'no') +
        (r.ready.checks
          ? ` (database ${r.ready.checks.database}, migrations ${r.ready.checks.migrations})`
          : ''),
    ],
    [
      'GAMING',
      r.features.gaming ? 'on' : 'off (NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED=false on the daemon)',
    ],
    ['CLI', `linkctl ${r.cli.version}`],
  ]
  const a = r.auth
  if (!a) fields.push(['KEY', 'none (run linkctl login)'])
  else if (!a.valid || !a.key) fields.push(['KEY', `${a.keyPreview} not valid: ${a.reason ?? 'unknown'}`])
  else {
    const k = a.key
    fields.push(['KEY', `${k.name} (${k.preview}, ${k.status}, from ${r.target.apiKeyFrom})`])
    fields.push([
      'ORGANIZATION',
      `${k.organization.name} (${k.organization.id}, plan ${k.organization.plan})`,
    ])
    fields.push(['SCOPES', k.permissions.join(ctx.isTTY ? ', ' : ',')])
    if (a.rateLimit) {
      const rl = a.rateLimit
      const reset = new Date(rl.reset * 1000).toISOString()
      fields.push(['RATE LIMIT', `${rl.remaining} of ${rl.limit} per ${rl.period} left, resets ${reset}`])
    }
  }
  await printRecord(ctx, fields)
  if (r.ready.jobs.length === 0) return
  ctx.stdout.write(ctx.isTTY ? '\nJobs:\n' : '\n')
  await printRows(ctx, r.ready.jobs, [
    { header: 'JOB', value: (j) => j.name },
    { header: 'LAST RUN', value: (j) => when(j.lastRunAt, ctx.isTTY) },
    { header: 'RESULT', value: (j) => j.lastStatus ?? 'never run' },
    { header: 'MS', value: (j) => j.lastDurationMs },
    { header: 'ERROR', value: (j) => j.lastError },
  ])
}

export function register(program: Command): void {
  jsonOption(
    program
      .command('status')
      .description('show daemon health, readiness and jobs, and who the current key is'),
  ).action(action<object>((_args, opts, ctx) => runStatus(opts, ctx)))
}
