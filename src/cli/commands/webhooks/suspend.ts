/** `linkctl webhooks suspend <ids...>`: pause deliveries of an active webhook until it is enabled; the work is runWebhooksStatus in shared.ts. */
import type { Command } from 'commander'
import { registerStateVerb } from './shared.js'

export function register(wh: Command): void {
  registerStateVerb(wh, 'suspend', 'pause deliveries of an active webhook until it is enabled')
}
