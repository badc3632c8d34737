/** `linkctl keys test [key]`: whether a key is valid, its scopes and rate limit (exit 4 when not valid). */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import type { Ctx } from '../../../session/context.js'
import { CliError, EXIT, UsageError } from '../../../session/exit-codes.js'
import { emit, printRecord, when } from '../../output.js'

export interface TestOpts {
  key: string
}

/** Checks a key with POST /api/keys/test (no key of our own needed). Invalid keys exit 4. */
export async function runKeysTest(opts: TestOpts, ctx: Ctx): Promise<void> {
  let key = opts.key
  if (key === '-') {
    let text = ''
    for await (const chunk of ctx.stdin) text += String(chunk)
    key = text.trim()
  } else if (!key) {
    // Asking keeps the key out of the shell history.
    if (!ctx.canPrompt) throw new UsageError('no key given: pass it, or - to read it from stdin')
    key = await ctx.prompt.secret('Key to test: ')
  }
  if (!key) throw new UsageError('no key given')
  const result = await (await ctx.clientWithKey(undefined)).keys.test(key)
  await emit(ctx, result, () => {
    const fields: [string, string | number | undefined][] = [
      ['VALID', String(result.valid)],
      ['REASON', result.reason],
    ]
    if (result.key) {
      const k = result.key
      fields.push(['ID', k.id], ['NAME', k.name], ['STATUS', k.status], ['PREVIEW', k.preview])
      fields.push(['ORGANIZATION', `${k.organization.name} (${k.organization.plan})`])
      fields.push(
        ['SCOPES', k.permissions.join(ctx.isTTY ? ', ' : ',')],
        ['EXPIRES', when(k.expiresAt, ctx.isTTY)],
      )
    }
    if (result.rateLimit) {
      const r = result.rateLimit
      fields.push(['RATE LIMIT', `${r.remaining}/${r.limit} per ${r.period} remaining`])
      fields.push(['RESETS', new Date(r.reset * 1000).toISOString()])
    }
    return printRecord(ctx, fields)
  })
  if (!result.valid) throw new CliError(`key is not valid: ${result.reason ?? 'unknown reason'}`, EXIT.auth)
}

export function register(keys: Command): void {
  jsonOption(
    keys
      .command('test')
      .description('check whether a key is valid (exit 4 when it is not)')
      .argument('[key]', 'the full key, or - to read it from stdin (asked for on a terminal when left out)'),
  ).action(action<object>(([key], _opts, ctx) => runKeysTest({ key: key ?? '' }, ctx)))
}
