/** `linkctl smart-links stats <smart-link>`: its analytics with the platforms breakdown. */
import type { Command } from 'commander'
import { registerStats } from '../links/stats.js'
import { REF_HELP, smartLinkIdOf } from './shared.js'

export function register(smart: Command): void {
  registerStats(smart, '<smart-link>', REF_HELP, smartLinkIdOf)
}
