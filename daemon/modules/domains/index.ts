import { recheckDomainsJob, renewCertificatesJob } from '../../jobs/domains.js'
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
