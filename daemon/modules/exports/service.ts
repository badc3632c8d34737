/**
 * Scheduled exports: destinations in S3-compatible object storage, and the runs that write one
 * UTC day of each dataset as one object, `<prefix>/<dataset>/date=YYYY-MM-DD/part-0.<ext>` (a
 * Hive-style partition). A day is encoded once into a temporary file (memory stays flat), then
 * uploaded with retries; a run records its time, and the day written or the error. The secret
 * access key is sealed at rest and never leaves the service but to sign requests.
 */
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { isLoopbackHost } from '../../addresses.js'
import { dateOfDay, isoOrNull, iso, utcDayNumber, type Clock } from '../../clock.js'
import type { SecretBox } from '../../crypto.js'
import { newId } from '../../crypto.js'
import { AppError, validation } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import { encodeRaw, RAW_CONTENT_TYPES, type RawRows } from '../../raw-export.js'
import {
  EXPORT_DESTINATION_LIMITS,
  RAW_DATASETS,
  type ExportDestination,
  type ExportRun,
  type RawDataset,
  type RawFormat,
} from '../../../src/contract/raw-export.js'
import { hostRefusal, SsrfError, type GuardPolicy } from '../webhooks/index.js'
import type { DatasetSource, ExportsService } from './api.js'
import { isStoreRefusal, putFile, s3ErrorText, type S3Options } from './s3.js'
import type { DestinationRow, ExportDestinationStore } from './store.js'

export interface ExportsDeps {
  store: ExportDestinationStore
  secrets: SecretBox
  clock: Clock
  /** The datasets this daemon can export (raw_events only while gaming is on). */
  datasets: Partial<Record<RawDataset, DatasetSource>>
  s3: S3Options
  /** Waits between the attempts of an upload (default 2 s, then 10 s). */
  retryDelaysMs?: readonly number[]
  log?: { warn(obj: object, msg: string): void }
}

/** Days the daily job goes back for days not written yet (a store down for a while). */
const CATCH_UP_DAYS = 7

/**
 * An endpoint as the webhooks take URLs: HTTPS, or HTTP to this machine; no credentials, query or
 * fragment; not a host the address policy refuses whatever DNS answers.
 */
function checkEndpoint(value: string, guard: GuardPolicy): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw validation('endpoint', 'must be an absolute URL')
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
    throw validation('endpoint', 'HTTPS is required (HTTP is allowed only for localhost and 127.0.0.1)')
  if (url.username || url.password || url.search || url.hash)
    throw validation('endpoint', 'must not hold credentials, a query or a fragment')
  const refused = hostRefusal(url.hostname, guard)
  if (refused) throw validation('endpoint', refused)
  return url.toString().replace(/\/$/, '')
}

/** A calendar day YYYY-MM-DD as a UTC day number (a 400 for 2026-02-30 and the like). */
function dayOf(date: string): number {
  const ms = Date.parse(`${date}T00:00:00Z`)
  if (!Number.isFinite(ms) || iso(ms).slice(0, 10) !== date) throw validation('date', 'is not a calendar day')
  return utcDayNumber(ms)
}

/** The object key of a dataset's day. */
export function objectKey(prefix: string, dataset: RawDataset, day: number, format: RawFormat): string {
  return `${prefix ? `${prefix}/` : ''}${dataset}/date=${dateOfDay(day)}/part-0.${format}`
}

function present(r: DestinationRow): ExportDestination {
  return {
    id: r.id,
    kind: 's3',
    endpoint: r.endpoint,
    bucket: r.bucket,
    prefix: r.prefix,
    region: r.region,
    accessKeyId: r.access_key_id,
    format: r.format as RawFormat,
    datasets: JSON.parse(r.datasets) as RawDataset[],
    gameId: r.game_id,
    createdAt: iso(Number(r.created_at)),
    lastRunAt: isoOrNull(r.last_run_at === null ? null : Number(r.last_run_at)),
    lastSuccessAt: isoOrNull(r.last_success_at === null ? null : Number(r.last_success_at)),
    lastExportedDate: r.last_exported_day === null ? null : dateOfDay(Number(r.last_exported_day)),
    lastError: r.last_error,
  }
}

/** The datasets a destination writes. */
const datasetsOf = (row: DestinationRow) => JSON.parse(row.datasets) as RawDataset[]

/**
 * The lastExportedDate after a `run` of `day`: the daily job resumes the day after it, so it moves
 * only onto a day that has ended and follows it (or is the first written). Today, written while it
 * still gets rows, and a day after a gap stay for the job to write (again).
 */
function manualRunMark(stored: number | null, day: number, today: number): number | null {
  const last = stored === null ? null : Number(stored)
  if (day >= today) return last
  return last === null || day === last + 1 ? day : last
}

export function createExportsService(deps: ExportsDeps): ExportsService {
  const { store, clock } = deps
  const delays = deps.retryDelaysMs ?? [2_000, 10_000]

  function source(dataset: RawDataset): DatasetSource {
    const s = deps.datasets[dataset]
    if (!s) throw validation('datasets', `${dataset} cannot be exported: Gaming Intelligence is turned off`)
    return s
  }

  async function owned(organizationId: string, id: string): Promise<DestinationRow> {
    const row = await store.get(organizationId, id)
    if (!row) throw new AppError('NotFound', `export destination ${id} not found`)
    return row
  }

  /** Encodes the rows into a temporary file: its path, rows and bytes (the caller removes `dir`). */
  async function encodeToFile(rows: RawRows, format: RawFormat, dir: string) {
    let count = 0
    const counted: RawRows = {
      columns: rows.columns,
      pages: (async function* () {
        for await (const page of rows.pages) {
          count += page.length
          yield page
        }
      })(),
    }
    const path = join(dir, `part-0.${format}`)
    await pipeline(Readable.from(encodeRaw(counted, format)), createWriteStream(path))
    return { path, rows: count, bytes: (await stat(path)).size }
  }

  /**
   * Uploads with retries (none when the address policy or the store refused: trying again cannot
   * help); the last attempt's error is thrown, with the attempts made in `attempts`.
   */
  async function upload(row: DestinationRow, key: string, file: { path: string; bytes: number }) {
    const target = {
      endpoint: row.endpoint,
      region: row.region,
      bucket: row.bucket,
      accessKeyId: row.access_key_id,
      secretAccessKey: deps.secrets.decrypt(row.secret_sealed),
    }
    const contentType = RAW_CONTENT_TYPES[row.format as RawFormat]
    for (let attempt = 0; ; attempt++) {
      try {
        await putFile(target, key, file.path, file.bytes, contentType, deps.s3)
        return
      } catch (err) {
        const wait = delays[attempt]
        if (wait === undefined || err instanceof SsrfError || isStoreRefusal(err))
          throw Object.assign(err as object, { attempts: attempt + 1 })
        deps.log?.warn(
          { destinationId: row.id, key, attempt: attempt + 1, error: s3ErrorText(err) },
          'export upload failed: retrying',
        )
        await sleep(wait)
      }
    }
  }

  /**
   * Writes one day of every dataset of the destination; records the outcome; throws 503 when the
   * store failed (linkd's own refusal as it is).
   * `last` is the destination's lastExportedDate after a success (the day the daily job resumes from).
   * `datasets`: the destination's unless told.
   */
  async function runDay(
    row: DestinationRow,
    day: number,
    last: number | null,
    datasets: readonly RawDataset[] = datasetsOf(row),
  ): Promise<ExportRun> {
    const format = row.format as RawFormat
    const objects: ExportRun['objects'] = []
    const dir = await mkdtemp(join(tmpdir(), 'linkd-export-'))
    try {
      for (const dataset of datasets) {
        const rows = await source(dataset).rows(row.organization_id, row.game_id, day)
        const file = await encodeToFile(rows, format, dir)
        const key = objectKey(row.prefix, dataset, day, format)
        await upload(row, key, file)
        objects.push({ dataset, key, rows: file.rows, bytes: file.bytes })
        await rm(file.path, { force: true })
      }
    } catch (err) {
      const refused = err instanceof SsrfError
      const attempts = (err as { attempts?: number }).attempts ?? 1
      const error =
        err instanceof AppError
          ? err.message
          : refused
            ? `linkd's address policy refused the endpoint, not the store: ${err.message}`
            : s3ErrorText(err)
      await store.recordRun(row.id, { at: clock.now(), ok: false, error })
      deps.log?.warn({ destinationId: row.id, date: dateOfDay(day), error }, 'export failed')
      // linkd's own refusal (the game's analytics turned off…) is answered as such, not as the store's.
      if (err instanceof AppError) throw err
      throw new AppError(
        'ServiceUnavailable',
        `the export of ${dateOfDay(day)} to bucket ${row.bucket} failed${attempts > 1 ? ` after ${attempts} attempts` : ''}: ${error}`,
      )
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    await store.recordRun(row.id, { at: clock.now(), ok: true, day: last })
    return { destinationId: row.id, date: dateOfDay(day), objects }
  }

  return {
    async create(organizationId, body) {
      const datasets = RAW_DATASETS.filter((d) => body.datasets.includes(d))
      const gameId = body.gameId ?? null
      const endpoint = body.endpoint ? checkEndpoint(body.endpoint, deps.s3.guard) : null
      const prefix = (body.prefix ?? '').replace(/^\/+|\/+$/g, '')
      // A path-style request resolves . and .. segments: `../other` would write into another bucket.
      if (prefix !== '' && prefix.split('/').some((s) => s === '' || s === '.' || s === '..'))
        throw validation('prefix', 'must not hold empty, . or .. segments (a/b/c)')
      if (datasets.includes('raw_events') && gameId === null)
        throw validation('gameId', 'is required to export raw_events')
      for (const d of datasets) await source(d).check(organizationId, gameId)
      if ((await store.count(organizationId)) >= EXPORT_DESTINATION_LIMITS.perOrganization)
        throw new AppError(
          'Conflict',
          `at most ${EXPORT_DESTINATION_LIMITS.perOrganization} export destinations per organization: remove one first`,
        )
      const row: DestinationRow = {
        id: newId('exd'),
        organization_id: organizationId,
        kind: 's3',
        endpoint,
        bucket: body.bucket,
        prefix,
        region: body.region ?? 'us-east-1',
        access_key_id: body.accessKeyId,
        secret_sealed: deps.secrets.encrypt(body.secretAccessKey),
        format: body.format ?? 'parquet',
        datasets: JSON.stringify(datasets),
        game_id: gameId,
        created_at: clock.now(),
        last_run_at: null,
        last_success_at: null,
        last_exported_day: null,
        last_error: null,
      }
      await store.insert(row)
      return present(row)
    },
    async list(organizationId, q) {
      const all = await store.list(organizationId)
      const p = pageParams(q)
      return pageOf(all.slice(p.offset, p.offset + p.perPage).map(present), all.length, p)
    },
    async remove(organizationId, id) {
      if (!(await store.delete(organizationId, id)))
        throw new AppError('NotFound', `export destination ${id} not found`)
    },
    async run(organizationId, id, date) {
      const row = await owned(organizationId, id)
      const today = utcDayNumber(clock.now())
      const day = date === undefined ? today - 1 : dayOf(date)
      if (day > today) throw validation('date', 'must not be in the future')
      return runDay(row, day, manualRunMark(row.last_exported_day, day, today))
    },
    async runDue() {
      const yesterday = utcDayNumber(clock.now()) - 1
      const oldest = yesterday - CATCH_UP_DAYS + 1
      let written = 0
      let failed = 0
      for (const row of await store.all()) {
        const done = row.last_exported_day === null ? null : Number(row.last_exported_day)
        // The last day written was written before its late rows had all arrived (game events
        // come up to 24 h late); by now, a whole day after it ended, they have: once more, those
        // datasets only (the same keys, replaced), then the days after it.
        const late = datasetsOf(row).filter((d) => deps.datasets[d]?.lateRows)
        const again = done !== null && done >= oldest && done < yesterday && late.length > 0 ? done : null
        const first = Math.max(done === null ? yesterday : done + 1, oldest)
        for (let day = again ?? first; day <= yesterday; day++) {
          try {
            if (day === again) await runDay(row, day, done, late)
            else await runDay(row, day, day)
            written++
          } catch {
            // Recorded on the destination; the next run tries this day again.
            failed++
            break
          }
        }
      }
      return { written, failed }
    },
  }
}
