/** `linkctl profile list|use`: the saved targets of the config store. */
import type { Command } from 'commander'
import { action, jsonOption } from '../action.js'
import type { Ctx } from '../../session/context.js'
import { CliError, EXIT } from '../../session/exit-codes.js'
import { emit, maskKey, note, printRows } from '../output.js'

export interface ProfileRow {
  name: string
  url: string
  apiKey: string
  current: boolean
}

export async function runProfileList(_opts: object, ctx: Ctx): Promise<void> {
  const store = await ctx.store()
  const current = store.current()
  const rows: ProfileRow[] = Object.entries(store.all())
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => ({ name, url: p.url, apiKey: maskKey(p.apiKey), current: name === current }))
  await emit(ctx, rows, async () => {
    if (rows.length === 0 && ctx.isTTY) return note(ctx, 'No profiles yet: run `linkctl login`.')
    await printRows(ctx, rows, [
      { header: 'CURRENT', value: (r) => (r.current ? '*' : '') },
      { header: 'NAME', value: (r) => r.name },
      { header: 'URL', value: (r) => r.url },
      { header: 'KEY', value: (r) => r.apiKey },
    ])
  })
}

export async function runProfileUse(opts: { name: string }, ctx: Ctx): Promise<void> {
  const store = await ctx.store()
  if (!store.get(opts.name)) {
    throw new CliError(
      `no profile named "${opts.name}"; create it with: linkctl login --profile ${opts.name}`,
      EXIT.error,
    )
  }
  store.setCurrent(opts.name)
  note(ctx, `Profile "${opts.name}" is now current`)
}

export function register(program: Command): void {
  const profile = program.command('profile').description('list and switch saved profiles')
  jsonOption(profile.command('list').alias('ls').description('list saved profiles (keys masked)')).action(
    action<object>((_args, opts, ctx) => runProfileList(opts, ctx)),
  )
  profile
    .command('use')
    .description('make a saved profile the current one')
    .argument('<name>', 'profile name')
    .action(action<object>(([name], _opts, ctx) => runProfileUse({ name: name ?? '' }, ctx)))
}
