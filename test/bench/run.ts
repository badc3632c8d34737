/**
 * `npm run bench`: every benchmark prints its figures and a ratio against a baseline measured in
 * the same run (machines here are noisy, so absolute numbers alone mean little). Never part of
 * `npm test`.
 */
import { startupBench } from './startup.js'
import { redirectBench } from './redirect.js'
import { analyticsBench } from './analytics.js'
import { webhooksBench, webhooksDeadEndpointBench } from './webhooks.js'
import { gamingBench } from './gaming.js'
import { gamingAnalyticsBench } from './gaming-analytics.js'
import { gamingFunnelBench } from './gaming-funnel.js'
import { fraudDetectBench } from './fraud-detect.js'
import { skanOptimizeBench } from './skan-optimize.js'
import { tuiBench } from './tui.js'
import { postgresBench } from './postgres.js'
import { rateLimitBench } from './ratelimit.js'
import { safetyBench } from './safety.js'
import { rawExportBench } from './raw-export.js'

const only = process.argv[2]
const benches: Record<string, () => Promise<void>> = {
  startup: () => startupBench(),
  redirect: () => redirectBench(),
  analytics: () => analyticsBench(),
  webhooks: () => webhooksBench(),
  'webhooks-dead': () => webhooksDeadEndpointBench(),
  gaming: () => gamingBench(),
  'gaming-analytics': () => gamingAnalyticsBench(),
  'gaming-funnel': () => gamingFunnelBench(),
  'fraud-detect': () => fraudDetectBench(),
  'skan-optimize': () => skanOptimizeBench(),
  tui: () => tuiBench(),
  postgres: () => postgresBench(process.argv[3]),
  ratelimit: () => rateLimitBench(),
  safety: () => safetyBench(),
  'raw-export': () => rawExportBench(),
}
process.stdout.write(`linkd benchmarks — node ${process.version}, ${new Date().toISOString()}\n`)
for (const [name, run] of Object.entries(benches)) {
  if (only && only !== name) continue
  await run()
}
