import { fraudBlocklistExpiryJob } from '../../jobs/fraud.js'
import type { Module } from '../module.js'
import { fraudRoutes } from './routes.js'
import type { FraudEventsService } from './events-service.js'
import type { FraudService } from './service.js'

export function fraudModule(deps: { fraud: FraudService; fraudEvents: FraudEventsService }): Module {
  return { name: 'fraud', routes: fraudRoutes(deps), jobs: [fraudBlocklistExpiryJob(deps.fraud)] }
}
