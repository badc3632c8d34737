/**
 * `POST /api/use/links/import`: a file another shortener (or linkd) exported, read by the same
 * readers as `linkctl links import` (src/import), each row created like a bulk item: rows are
 * checked on their own, the valid ones of each 1,000 committed together, a failed row writes
 * nothing. Rows keep their short code, title, tags and creation date; a row whose short URL
 * host is a verified custom domain of the organization goes on that domain, any other host where
 * a new link goes by default. A dry run checks the same and writes nothing.
 */
import { AppError, validation } from '../../http/errors.js'
import type { CreateLinkBody, ImportLinksBody, ImportLinksResult, Link } from '../../../src/contract/links.js'
import { IMPORT_LIMITS, LINK_LIMITS } from '../../../src/contract/limits.js'
import { plural } from '../../../src/contract/numbers.js'
import { PATTERN_MESSAGES, SLUG_PATTERN } from '../../../src/contract/text.js'
import { ImportFileError, readRows, type BodyRow, type Row } from '../../../src/import/index.js'
import { bulkCreate } from './bulk.js'
import type { LinkRecord } from './records.js'
import type { LinkWriter, NewItem } from './writer.js'
import type { ItemValidator } from './api.js'

type Result = ImportLinksResult['results'][number]

export async function importFile(
  req: ImportLinksBody,
  validate: ItemValidator,
  deps: {
    draft: (body: CreateLinkBody) => Promise<Omit<NewItem, 'index'>>
    writer: Pick<LinkWriter, 'insert'>
    present: (l: LinkRecord) => Link
    t: number
    /** Whether a host is a verified custom domain of the organization. */
    ownsHost: (host: string) => boolean
  },
): Promise<ImportLinksResult> {
  const source = req.source ?? 'linkd'
  const dryRun = req.dryRun === true
  const bytes = Buffer.byteLength(req.file)
  if (bytes > IMPORT_LIMITS.fileBytesMax)
    throw new AppError(
      'PayloadTooLarge',
      `the file is ${mb(bytes)}; an import takes at most ${mb(IMPORT_LIMITS.fileBytesMax)}: split it, or use linkctl links import, which sends any size in parts`,
    )
  const rows = await allRows(source, req.file, deps.t)
  const results: Result[] = []
  let created = 0
  for (let from = 0; from < rows.length; from += LINK_LIMITS.bulkMax) {
    const part = rows.slice(from, from + LINK_LIMITS.bulkMax)
    const sent: BodyRow[] = []
    const done = new Map<BodyRow | Row, Result>()
    for (const row of part) {
      if ('body' in row) sent.push(row)
      else
        done.set(row, {
          line: row.line,
          status: 'failed',
          shortCode: null,
          error: { error: row.error, message: row.message },
        })
    }
    const bodies = sent.map((r) => placed(r, deps.ownsHost))
    const answer = bodies.length
      ? await bulkCreate(
          bodies,
          keepShortCodes(validate),
          async (body, index) => {
            const d = await deps.draft(body)
            const at = sent[index]?.createdAt
            if (at !== undefined) {
              const t = Date.parse(at)
              if (t > deps.t) throw validation('createdAt', `${at} is in the future`)
              d.record.createdAt = t
            }
            if (sent[index]?.inactive === true) d.record.status = 'inactive'
            return d
          },
          { writer: deps.writer, present: deps.present, t: deps.t, dryRun },
        )
      : undefined
    for (const r of answer?.results ?? []) {
      const row = sent[r.index]!
      const asked = typeof row.body.customSlug === 'string' ? row.body.customSlug : null
      if (r.status === 'failed') {
        done.set(row, {
          line: row.line,
          status: 'failed',
          shortCode: asked,
          ...(r.error ? { error: r.error } : {}),
        })
      } else if (dryRun) {
        done.set(row, { line: row.line, status: 'wouldCreate', shortCode: asked })
      } else {
        created++
        done.set(row, {
          line: row.line,
          status: 'created',
          shortCode: r.link?.shortCode ?? asked,
          ...(r.link ? { link: r.link } : {}),
        })
      }
    }
    for (const row of part) results.push(done.get(row)!)
  }
  const ok = results.filter((r) => r.status !== 'failed').length
  return {
    source,
    dryRun,
    created,
    wouldCreate: dryRun ? ok : 0,
    failed: results.length - ok,
    results,
  }
}

const SLUG = new RegExp(SLUG_PATTERN)

/**
 * An imported code may be shorter than a new link's minimum (YOURLS' `a`, Bitly's old 2-letter
 * back-halves): the short URLs people already printed keep working. Only the length is waived;
 * the characters are checked as for any code.
 */
function keepShortCodes(validate: ItemValidator): ItemValidator {
  return (item) => {
    const { customSlug, ...rest } = item as Record<string, unknown>
    if (typeof customSlug !== 'string' || customSlug === '' || customSlug.length >= LINK_LIMITS.slugMin)
      return validate(item)
    const problems = validate(rest) ?? []
    if (!SLUG.test(customSlug))
      problems.unshift({ field: 'customSlug', message: PATTERN_MESSAGES[SLUG_PATTERN]! })
    return problems.length > 0 ? problems : undefined
  }
}

/** The rows of the file; a file that cannot be read, or holds too many rows, is a 400 / 413. */
async function allRows(
  source: ImportLinksBody['source'] & string,
  file: string,
  now: number,
): Promise<Row[]> {
  const rows: Row[] = []
  try {
    const read = await readRows(
      source,
      (async function* () {
        yield file
      })(),
      undefined,
      { now },
    )
    for await (const row of read.rows) {
      rows.push(row)
      if (rows.length > IMPORT_LIMITS.rowsMax)
        throw new AppError(
          'PayloadTooLarge',
          `the file holds more than ${plural(IMPORT_LIMITS.rowsMax, 'row')}; an import takes at most that many: split it, or use linkctl links import, which sends any size in parts`,
        )
    }
  } catch (err) {
    if (err instanceof ImportFileError) throw validation('file', err.message)
    throw err
  }
  return rows
}

/** The create body of a row, on the row's custom domain when it is a verified one of the organization. */
function placed(row: BodyRow, ownsHost: (host: string) => boolean): Record<string, unknown> {
  const body = row.body
  if (row.host === undefined || body.domain !== undefined || body.customDomainId !== undefined) return body
  return ownsHost(row.host) ? { ...body, domain: row.host } : body
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`
