/** Where the API key and daemon URL linkctl uses came from, in words for messages. */
import type { Target } from '../session/context.js'

/** `the --api-key flag`, `LINKCTL_API_KEY` or `profile "default"`. */
export function keySourceName(target: Target): string {
  if (target.sources.apiKey === 'flag') return 'the --api-key flag'
  if (target.sources.apiKey === 'env') return 'LINKCTL_API_KEY'
  return `profile "${target.profile}"`
}

/** `--url`, `LINKCTL_URL`, `profile "default"` or `the default`. */
export function urlSourceName(target: Target): string {
  if (target.sources.url === 'flag') return '--url'
  if (target.sources.url === 'env') return 'LINKCTL_URL'
  if (target.sources.url === 'default') return 'the default'
  return `profile "${target.profile}"`
}
