/** `linkctl domains update <domain>`: default flag and root redirect of a domain. */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit, printRecord } from '../../output.js'
import { domainFields, type IdOpts, DOMAIN_ARGUMENT, domainAction } from './shared.js'

export async function runDomainsUpdate(
  opts: IdOpts & { default?: boolean; rootRedirect?: string },
  ctx: Ctx,
): Promise<void> {
  const body = {
    ...(opts.default !== undefined ? { isDefault: opts.default } : {}),
    ...(opts.rootRedirect !== undefined
      ? { rootRedirectUrl: opts.rootRedirect === '' ? null : opts.rootRedirect }
      : {}),
  }
  if (!Object.keys(body).length)
    throw new UsageError('nothing to update: pass --default, --no-default or --root-redirect')
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.update(opts.id, body)
  await emit(ctx, d, () => printRecord(ctx, domainFields(d, ctx.isTTY)))
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('update')
      .description('change domain settings')
      .argument('<domain>', DOMAIN_ARGUMENT)
      .option('--default', 'make it the default domain for new links')
      .option('--no-default', 'stop being the default (new links use the shared domain)')
      .option('--root-redirect <url>', 'where the bare domain redirects ("" removes it)'),
  ).action(domainAction<{ default?: boolean; rootRedirect?: string }>(runDomainsUpdate))
}
