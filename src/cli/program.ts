/**
 * The commander tree of linkctl. A noun with several verbs is a folder, one file per verb
 * (`linkctl links import` → commands/links/import.ts: `register` declares the flags, `runLinksImport`
 * does the work and is what tests call); a noun whose verbs are few and small is one file
 * (commands/gdpr.ts). Start-up cost matters (`linkctl --version` should take about as long as
 * `node -e 0`), so this module and everything it imports statically load only commander and
 * node builtins; the client and conf load inside actions.
 */
import { Command, Help } from 'commander'
import { DEFAULT_URL } from '../session/context.js'
import { register as registerAnalytics } from './commands/analytics/index.js'
import { register as registerApi } from './commands/api.js'
import { register as registerAudit } from './commands/audit.js'
import { register as registerAuth } from './commands/auth.js'
import { register as registerCompletion } from './commands/completion.js'
import { register as registerEvents } from './commands/events.js'
import { register as registerExport } from './commands/export/index.js'
import { register as registerExports } from './commands/exports/index.js'
import { register as registerGames } from './commands/games/index.js'
import { register as registerFraud } from './commands/fraud/index.js'
import { register as registerGdpr } from './commands/gdpr.js'
import { register as registerSkan } from './commands/skan/index.js'
import { register as registerHelp } from './commands/help.js'
import { register as registerDomains } from './commands/domains/index.js'
import { register as registerKeys } from './commands/keys/index.js'
import { register as registerLinks } from './commands/links/index.js'
import { register as registerSmartLinks } from './commands/smart-links/index.js'
import { register as registerQr } from './commands/qr/index.js'
import { register as registerWebhooks } from './commands/webhooks/index.js'
import { register as registerSafety } from './commands/safety/index.js'
import { register as registerProfile } from './commands/profile.js'
import { register as registerStatus } from './commands/status.js'
import { register as registerTeam } from './commands/team/index.js'
import { register as registerTui } from './commands/tui.js'
import { register as registerWhoami } from './commands/whoami.js'
import { packageVersion } from '../version.js'
import { helpText } from './output.js'

export function buildProgram(): Command {
  const program = new Command('linkctl')
    .description('Command-line client of linkd: API keys, links, analytics, games and more.')
    .version(packageVersion(), '-V, --version', 'print the linkctl version')
    .option('--url <url>', `linkd base URL (env LINKCTL_URL; default ${DEFAULT_URL})`)
    .option('--api-key <key>', 'API key (env LINKCTL_API_KEY)')
    .option('--profile <name>', 'saved profile to use (env LINKCTL_PROFILE)')
    // Read anywhere on the line (before or after the command), like the three above; the commands
    // that print JSON list it in their own help, the others refuse it (action.ts).
    .option('--json', 'print the result as JSON (commands that have it)')
    .showSuggestionAfterError()
    // Mandatory options say so in --help; subcommands inherit this (they are added below).
    .configureHelp({
      // Commander leaves a description unwrapped when fewer than 40 columns remain beside a long
      // term (`fraud review [options] <game> <eventId> <review>`); 30 still reads well.
      minWidthToWrap: 30,
      optionDescription: (option) => {
        const text = new Help().optionDescription(option)
        return option.mandatory ? `${text} (required)` : text
      },
    })
    .addHelpText(
      'after',
      helpText(
        'Settings come from flags, then LINKCTL_URL / LINKCTL_API_KEY / LINKCTL_PROFILE, then the current profile.',
        'Output is a table on a terminal, tab-separated lines when piped, JSON with --json.',
        'Exit codes: linkctl help exit-codes',
      ),
    )
  registerAuth(program)
  registerProfile(program)
  registerStatus(program)
  registerWhoami(program)
  registerKeys(program)
  registerTeam(program)
  registerLinks(program)
  registerSmartLinks(program)
  registerQr(program)
  registerDomains(program)
  registerWebhooks(program)
  registerSafety(program)
  registerGames(program)
  registerEvents(program)
  registerAnalytics(program)
  registerExport(program)
  registerExports(program)
  registerFraud(program)
  registerSkan(program)
  registerGdpr(program)
  registerAudit(program)
  registerApi(program)
  registerTui(program)
  registerCompletion(program, buildProgram)
  registerHelp(program)
  return program
}
