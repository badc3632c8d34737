/**
 * `linkctl domains ...`: custom domains over /api/domains. Each verb is one file beside this one
 * (`domains set-default` → set-default.ts) with its flags (`register`) and its work
 * (`runDomains<Verb>`); shared.ts holds how a domain is shown. The order below is the order of
 * `domains --help`.
 */
import type { Command } from 'commander'
import { register as registerAdd } from './add.js'
import { register as registerAppLinks } from './app-links.js'
import { register as registerCheck } from './check.js'
import { register as registerDelete } from './delete.js'
import { register as registerGet } from './get.js'
import { register as registerList } from './list.js'
import { register as registerSetDefault } from './set-default.js'
import { register as registerSsl } from './ssl.js'
import { register as registerStats } from './stats.js'
import { register as registerUpdate } from './update.js'
import { register as registerVerify } from './verify.js'

export function register(program: Command): void {
  const domains = program.command('domains').description('manage custom domains')
  for (const registerVerb of [
    registerAdd,
    registerList,
    registerGet,
    registerVerify,
    registerCheck,
    registerSsl,
    registerSetDefault,
    registerUpdate,
    registerAppLinks,
    registerDelete,
    registerStats,
  ])
    registerVerb(domains)
}
