/** `linkctl tui` (alias `dashboard`): the full-screen dashboards; Ink and React load only here. */
import type { Command } from 'commander'
import { action } from '../action.js'

export function register(program: Command): void {
  program
    .command('tui')
    .alias('dashboard')
    // The screens in tab order, as the TUI's registry has them (src/tui/screens/index.ts, which
    // loads Ink and so is never imported here; test/tui/command.test.ts keeps the two together).
    .description(
      'full-screen dashboards (needs a terminal): Home, Links, Keys, Domains, Webhooks, Games, Fraud, SKAN, GDPR, Team',
    )
    .option('--refresh <seconds>', 'seconds between refreshes (default 5)')
    .addHelpText('after', '\nPress ? inside for the keys of each screen; q or Ctrl-C quits.')
    .action(
      action<{ refresh?: string }>(async (_args, opts, ctx) => {
        // Ink renders only a last frame when CI is set (is-in-ci, read as Ink loads). On a
        // terminal the dashboards are interactive whatever CI says (a tmux in a CI job, say);
        // without one runTui refuses to start anyway.
        if (ctx.isTTY && ctx.stdin.isTTY === true) {
          delete process.env.CI
          delete process.env.CONTINUOUS_INTEGRATION
        }
        const { runTui } = await import('../../tui/run.js')
        await runTui(opts, ctx)
      }),
    )
}
