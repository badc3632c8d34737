/** `linkctl webhooks disable <ids...>`: disable webhooks: they receive nothing (several ids: bulk); the work is runWebhooksStatus in shared.ts. */
import type { Command } from 'commander'
import { registerStateVerb } from './shared.js'

export function register(wh: Command): void {
  registerStateVerb(wh, 'disable', 'disable webhooks: they receive nothing (several ids: bulk)')
}
