/** Where the API key linkctl uses came from, in words for messages. */
import type { Target } from '../session/context.js'

/** `the --api-key flag`, `LINKCTL_API_KEY` or `profile "default"`. */
export function keySourceName(target: Target): string {
  if (target.sources.apiKey === 'flag') return 'the --api-key flag'
  if (target.sources.apiKey === 'env') return 'LINKCTL_API_KEY'
  return `profile "${target.profile}"`
}
