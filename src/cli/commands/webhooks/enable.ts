/** `linkctl webhooks enable <ids...>`: enable webhooks (resets consecutive failures; several ids: bulk); the work is runWebhooksStatus in shared.ts. */
import type { Command } from 'commander'
import { registerStateVerb } from './shared.js'

export function register(wh: Command): void {
  registerStateVerb(wh, 'enable', 'enable webhooks (resets consecutive failures; several ids: bulk)')
}
