import type { LinkService } from './api.js'
import type { JobDefinition } from '../../jobs/scheduler.js'
import { plural } from '../../../src/contract/numbers.js'

/** Persists the expired status of links whose expiry passed (redirects and reads derive it at once anyway). */
export function expireLinksJob(links: Pick<LinkService, 'expireDue'>): JobDefinition {
  return {
    name: 'expire-links',
    schedule: '* * * * *',
    async run() {
      const n = await links.expireDue()
      return n ? `${plural(n, 'link')} expired` : undefined
    },
  }
}
