/**
 * `linkctl webhooks validate-url <url>`: would linkd deliver to this URL? The daemon's
 * POST /api/webhooks/utilities/validate-url under its own settings (loopback, private networks,
 * TLS): errors, warnings, suggestions and a security score. Exit 1 when it is not valid.
 */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { CliError, EXIT } from '../../../session/exit-codes.js'
import { emit, printRecord } from '../../output.js'

export async function runWebhooksValidateUrl(url: string, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const result = await (await ctx.client()).webhooks.validateUrl(url)
  const list = (items: string[]) => items.join(ctx.isTTY ? '; ' : ' | ')
  await emit(ctx, result, () =>
    printRecord(ctx, [
      ['URL', url],
      ['VALID', result.valid ? 'yes' : 'no'],
      ['SECURITY SCORE', ctx.isTTY ? `${result.securityScore}/100` : result.securityScore],
      ['ERRORS', list(result.errors)],
      ['WARNINGS', list(result.warnings)],
      ['SUGGESTIONS', list(result.suggestions)],
    ]),
  )
  if (!result.valid)
    throw new CliError(`linkd would not deliver to ${url}: ${result.errors.join('; ')}`, EXIT.error)
}

export function register(wh: Command): void {
  jsonOption(
    wh
      .command('validate-url')
      .description("check a receiver URL against linkd's rules (exit 1 when it would be refused)")
      .argument('<url>', 'receiver URL'),
  ).action(action((args, _opts, ctx) => runWebhooksValidateUrl(args[0] ?? '', ctx)))
}
