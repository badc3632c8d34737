export { RENEW_CERTIFICATES_JOB } from './jobs.js'
export { createDomainStore } from './store.js'
export { createAcmeStore } from './acme-store.js'
export { createDomainDirectory, type DomainDirectory } from './directory.js'
export { createDomainService } from './service.js'
export { createAcme } from './acme.js'
export { parseResolvers } from './dns.js'
export { listenHttps } from './tls.js'
import { recheckDomainsJob, renewCertificatesJob } from './jobs.js'
import type { Module } from '../module.js'
import type { DomainDirectory } from './directory.js'
import { domainRoutes, installDomainRedirects } from './routes.js'
import type { DomainService } from './service.js'

export function domainsModule(deps: { domains: DomainService; directory: DomainDirectory }): Module {
  return {
    name: 'domains',
    hooks: (app) => installDomainRedirects(app, deps.directory),
    routes: domainRoutes(deps),
    jobs: [recheckDomainsJob(deps.domains), renewCertificatesJob(deps.domains)],
  }
}
