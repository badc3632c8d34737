/** `linkctl tui` (alias `dashboard`): the full-screen dashboards; Ink and React load only here. */
import type { Command } from 'commander'
import { action } from '../action.js'

export function register(program: Command): void {
  program
    .command('tui')
    .alias('dashboard')
    .description('full-screen dashboards: health, links, keys, domains, webhooks (needs a terminal)')
    .option('--refresh <seconds>', 'seconds between refreshes (default 5)')
    .addHelpText('after', '\nPress ? inside for the keys of each screen; q or Ctrl-C quits.')
    .action(
      action<{ refresh?: string }>(async (_args, opts, ctx) => {
        const { runTui } = await import('../../tui/run.js')
        await runTui(opts, ctx)
      }),
    )
}
