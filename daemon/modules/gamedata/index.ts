import { gamingCompactionJob, gamingRawRetentionJob } from '../../jobs/gaming.js'
import type { IngestService } from '../ingest/service.js'
import type { Module } from '../module.js'
import type { GamedataService } from './service.js'

/** The gaming storage layers: no routes of their own (ingest writes, gaming-analytics reads), their retention jobs. */
export function gamedataModule(deps: {
  gamedata: GamedataService
  ingest: Pick<IngestService, 'pruneBatches'>
}): Module {
  return {
    name: 'gamedata',
    jobs: [gamingRawRetentionJob(deps.gamedata, deps.ingest), gamingCompactionJob(deps.gamedata)],
  }
}
