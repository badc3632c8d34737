/** `linkctl login` and `linkctl logout`: profiles in the config store. */
import type { Command } from 'commander'
import { action } from '../action.js'
import { profileName, type Ctx } from '../../session/context.js'
import { CliError, EXIT, UsageError } from '../../session/exit-codes.js'
import { helpText, maskKey, note } from '../output.js'

/**
 * Saves url and key in the profile (--profile, default `default`) and makes it current.
 * The key comes from --api-key / LINKCTL_API_KEY, or a prompt on a terminal; it is checked
 * with POST /api/keys/test first and refused (exit 4) when not valid.
 */
export async function runLogin(_opts: object, ctx: Ctx): Promise<void> {
  const target = await ctx.target()
  let key = target.sources.apiKey === 'flag' || target.sources.apiKey === 'env' ? target.apiKey : undefined
  if (!key) {
    if (!ctx.canPrompt)
      throw new UsageError('no API key: pass --api-key or set LINKCTL_API_KEY (no terminal to prompt on)')
    key = await ctx.prompt.secret(`API key for ${target.url}: `)
    if (!key) throw new UsageError('no API key entered')
  }
  const result = await (await ctx.clientWithKey(undefined)).keys.test(key)
  if (!result.valid || !result.key) {
    throw new CliError(
      `the key is not valid (${result.reason ?? 'unknown reason'}); nothing saved`,
      EXIT.auth,
    )
  }
  const store = await ctx.store()
  store.save(target.profile, { url: target.url, apiKey: key })
  store.setCurrent(target.profile)
  const k = result.key
  note(
    ctx,
    `Logged in to ${target.url} as ${k.name} (${maskKey(key)}, organization ${k.organization.name}); ` +
      `profile "${target.profile}" is now current (saved in ${store.path})`,
  )
}

/** Forgets the key of the resolved profile (its url stays). */
export async function runLogout(_opts: object, ctx: Ctx): Promise<void> {
  const profile = await profileName(ctx)
  const store = await ctx.store()
  const saved = store.get(profile)
  if (!saved?.apiKey) {
    note(ctx, `Profile "${profile}" has no saved key.`)
    return
  }
  store.save(profile, { url: saved.url })
  note(ctx, `Logged out: removed the key of profile "${profile}" (${saved.url})`)
}

export function register(program: Command): void {
  program
    .command('login')
    .description('save a daemon URL and API key as a profile (uses --url, --api-key, --profile)')
    .addHelpText(
      'after',
      helpText(
        'The key is checked with the daemon before it is saved. Without --api-key (or LINKCTL_API_KEY) it is asked for on the terminal; without a terminal, login fails with exit code 2.',
      ),
    )
    .action(action<object>((_args, opts, ctx) => runLogin(opts, ctx), { allowNewProfile: true }))
  program
    .command('logout')
    .description('remove the saved API key of the current profile (or --profile)')
    .action(action<object>((_args, opts, ctx) => runLogout(opts, ctx)))
}
