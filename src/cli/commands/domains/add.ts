/** `linkctl domains add <domain>`: add a custom domain and print the DNS records (or the file) to create. */
import { Option, type Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { CliError, EXIT, UsageError } from '../../../session/exit-codes.js'
import { emit } from '../../output.js'
import { apiMethod, METHOD_DESCRIPTION, METHODS, showDomain, zoneLines } from './shared.js'

export async function runDomainsAdd(
  opts: { domain: string; method?: (typeof METHODS)[number] },
  ctx: Ctx,
): Promise<void> {
  if (!opts.domain) throw new UsageError('give the domain, e.g. linkctl domains add go.example.com')
  await requireKey(ctx)
  const verificationMethod = opts.method && apiMethod(opts.method)
  const client = await ctx.client()
  const d = await client.domains
    .add({ domain: opts.domain, ...(verificationMethod ? { verificationMethod } : {}) })
    .catch((err: unknown) => {
      throw takeoverSteps(err, opts.domain.trim()) ?? err
    })
  await emit(ctx, d, () => showDomain(ctx, d))
}

/**
 * The 409 for a host another organization added and has not verified, in steps: the TXT record
 * (zone-file form) that proves control, then the same add again. Undefined for other errors.
 */
function takeoverSteps(err: unknown, host: string): CliError | undefined {
  const e = err as {
    name?: string
    status?: number
    body?: { details?: { field: string; message: string }[] }
  }
  if (e.name !== 'ApiError' || e.status !== 409) return undefined
  const detail = (field: string) => e.body?.details?.find((d) => d.field === field)?.message
  const [name, value, now] = [detail('txtRecord.name'), detail('txtRecord.value'), detail('txtRecord')]
  if (!name || !value) return undefined
  return new CliError(
    `${host} has been added by another organization, which has not verified it (HTTP 409).\n` +
      'If the domain is yours, prove it: create this record at its DNS provider (zone-file form)\n\n' +
      `${zoneLines([{ type: 'TXT', name, value, status: 'Pending' }])}\n\n` +
      `then run linkctl domains add ${host} again: an unverified claim gives way to an organization ` +
      `that proves control of the domain.${now ? `\nThe record now: ${now}.` : ''}`,
    EXIT.conflict,
    { cause: err },
  )
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('add')
      .description('add a custom domain and print the DNS records (or the verification file) to create')
      .argument('<domain>', 'host name, e.g. go.example.com')
      .addOption(new Option('--method <method>', METHOD_DESCRIPTION).choices(METHODS).default('dns')),
  ).action(
    action<{ method: (typeof METHODS)[number] }>(([domain], opts, ctx) =>
      runDomainsAdd({ domain: domain ?? '', method: opts.method }, ctx),
    ),
  )
}
