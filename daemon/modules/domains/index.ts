/** Custom domains, DNS checks, ACME, SNI; owns `custom_domains`, `acme_accounts`, `acme_challenges`. */
export type * from './api.js'
import type { DomainService, DomainDirectory, FlaggedRootPage } from './api.js'
import type { Module } from '../module.js'
import { expireDomainClaimsJob, recheckDomainsJob, renewCertificatesJob } from './jobs.js'
import { appLinkRoutes } from './app-link-routes.js'
import { acmeRoutes, installDomainRedirects } from './host-routes.js'
import { domainRoutes } from './routes.js'
import { domainStatusRoutes } from './status-routes.js'
export { createDomainStore } from './store.js'
export type { DomainRecord } from './records.js'
export { createAcmeStore } from './acme-store.js'
export { createDomainService } from './service.js'
export { createDomainDirectory } from './directory.js'
export { createAcme } from './acme.js'
export { parseResolvers } from './dns.js'
export { listenHttps } from './tls.js'
export { RENEW_CERTIFICATES_JOB } from './jobs.js'

export function domainsModule(deps: {
  domains: DomainService
  directory: DomainDirectory
  /** The warning page a flagged root redirect answers (the redirect module's). */
  flaggedRoot: FlaggedRootPage
}): Module {
  const plugins = [domainRoutes, domainStatusRoutes, appLinkRoutes, acmeRoutes].map((p) => p(deps))
  return {
    name: 'domains',
    hooks: (app) => installDomainRedirects(app, deps.directory, deps.flaggedRoot),
    routes: async (app) => {
      for (const plugin of plugins) await plugin(app)
    },
    jobs: [
      recheckDomainsJob(deps.domains),
      renewCertificatesJob(deps.domains),
      expireDomainClaimsJob(deps.domains),
    ],
  }
}
