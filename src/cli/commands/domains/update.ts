/** `linkctl domains update <domain>`: default flag, root redirect and verification method of a domain. */
import { Option, type Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit, printRecord } from '../../output.js'
import {
  apiMethod,
  domainAction,
  domainFields,
  DOMAIN_ARGUMENT,
  METHOD_DESCRIPTION,
  METHODS,
  showDomain,
  type IdOpts,
} from './shared.js'

export async function runDomainsUpdate(
  opts: IdOpts & { default?: boolean; rootRedirect?: string; method?: (typeof METHODS)[number] },
  ctx: Ctx,
): Promise<void> {
  if (opts.method === 'dns') await requireKey(ctx)
  // `dns` is the DNS method of the domain's type, which the domain's records tell.
  const current = opts.method === 'dns' ? await (await ctx.client()).domains.get(opts.id) : undefined
  const verificationMethod = opts.method && apiMethod(opts.method, current)
  const body = {
    ...(verificationMethod ? { verificationMethod } : {}),
    ...(opts.default !== undefined ? { isDefault: opts.default } : {}),
    ...(opts.rootRedirect !== undefined
      ? { rootRedirectUrl: opts.rootRedirect === '' ? null : opts.rootRedirect }
      : {}),
  }
  if (!Object.keys(body).length)
    throw new UsageError('nothing to update: pass --default, --no-default, --root-redirect or --method')
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.update(opts.id, body)
  // A new method has new steps to show; other changes show the settings alone.
  await emit(ctx, d, () =>
    verificationMethod ? showDomain(ctx, d) : printRecord(ctx, domainFields(d, ctx.isTTY)),
  )
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('update')
      .description('change domain settings')
      .argument('<domain>', DOMAIN_ARGUMENT)
      .option('--default', 'make it the default domain for new links')
      .option('--no-default', 'stop being the default (new links use the shared domain)')
      .option('--root-redirect <url>', 'where the bare domain redirects ("" removes it)')
      .addOption(
        new Option('--method <method>', `${METHOD_DESCRIPTION}; only before it is verified`).choices(METHODS),
      ),
  ).action(
    domainAction<{ default?: boolean; rootRedirect?: string; method?: (typeof METHODS)[number] }>(
      runDomainsUpdate,
    ),
  )
}
