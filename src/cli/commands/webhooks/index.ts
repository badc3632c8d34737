/**
 * `linkctl webhooks ...`: webhook management over /api/webhooks, validate-url (the daemon's
 * utility route), and sign, verify (offline with the signature module the daemon signs with, or
 * the daemon's utility routes with --remote) and listen. Each verb is one file beside
 * this one (`webhooks rotate-secret` → rotate-secret.ts) with its flags (`register`) and its work
 * (`runWebhooks<Verb>`); shared.ts holds what several verbs use. The order below is the order
 * of `webhooks --help`.
 */
import type { Command } from 'commander'
import { register as registerCreate } from './create.js'
import { register as registerDelete } from './delete.js'
import { register as registerDeliveries } from './deliveries.js'
import { register as registerDisable } from './disable.js'
import { register as registerEnable } from './enable.js'
import { register as registerGet } from './get.js'
import { register as registerHealth } from './health.js'
import { register as registerList } from './list.js'
import { register as registerListen } from './listen.js'
import { register as registerRetry } from './retry.js'
import { register as registerRotateSecret } from './rotate-secret.js'
import { register as registerSign } from './sign.js'
import { register as registerSuspend } from './suspend.js'
import { register as registerTemplates } from './templates.js'
import { register as registerTest } from './test.js'
import { register as registerUpdate } from './update.js'
import { register as registerValidateUrl } from './validate-url.js'
import { register as registerVerify } from './verify.js'

export function register(program: Command): void {
  const wh = program.command('webhooks').description('manage webhooks; sign, verify and receive deliveries')
  for (const registerVerb of [
    registerCreate,
    registerList,
    registerGet,
    registerUpdate,
    registerEnable,
    registerDisable,
    registerSuspend,
    registerDelete,
    registerRotateSecret,
    registerTest,
    registerDeliveries,
    registerRetry,
    registerHealth,
    registerTemplates,
    registerValidateUrl,
    registerSign,
    registerVerify,
    registerListen,
  ])
    registerVerb(wh)
}
