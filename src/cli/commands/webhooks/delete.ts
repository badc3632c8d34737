/** `linkctl webhooks delete <ids...>`: delete webhooks and their delivery logs (asks on a terminal; several ids: bulk); the work is runWebhooksStatus in shared.ts. */
import type { Command } from 'commander'
import { registerStateVerb } from './shared.js'

export function register(wh: Command): void {
  registerStateVerb(
    wh,
    'delete',
    'delete webhooks and their delivery logs (asks on a terminal; several ids: bulk)',
  )
}
