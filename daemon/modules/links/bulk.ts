/** `POST /api/use/links/bulk`: up to 1,000 create bodies, each checked alone, the valid ones inserted together. */
import { AppError, validationError } from '../../http/errors.js'
import type { BulkCreateResult, CreateLinkBody, Link } from '../../../src/contract/links.js'
import type { LinkRecord } from './records.js'
import type { LinkWriter, NewItem } from './writer.js'
import type { ItemValidator } from './api.js'

/**
 * One result per item: `validate` checks the CreateLinkBody schema, `draft` every other rule of a
 * create body; the items that pass are inserted in one transaction (writer.insert).
 */
export async function bulkCreate(
  items: unknown[],
  validate: ItemValidator,
  draft: (body: CreateLinkBody, index: number) => Promise<Omit<NewItem, 'index'>>,
  deps: {
    writer: Pick<LinkWriter, 'insert'>
    present: (l: LinkRecord) => Link
    t: number
    /** Checks everything, writes nothing: `created` then counts the items that would be. */
    dryRun?: boolean
  },
): Promise<BulkCreateResult> {
  const failures = new Map<number, AppError>()
  const drafts: NewItem[] = []
  for (const [index, item] of items.entries()) {
    const problems = validate(item)
    if (problems?.length) {
      failures.set(index, validationError(problems))
      continue
    }
    try {
      drafts.push({ index, ...(await draft(item as CreateLinkBody, index)) })
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      failures.set(index, err)
    }
  }
  const committed = drafts.length
    ? await deps.writer.insert(drafts, 'customSlug', deps.t, { dryRun: deps.dryRun === true })
    : new Map()
  let created = 0
  const results: BulkCreateResult['results'] = items.map((_, index) => {
    const r = failures.get(index) ?? committed.get(index)
    if (r instanceof AppError || r === undefined) {
      const e = r ?? new AppError('InternalError', 'not processed')
      return {
        index,
        status: 'failed' as const,
        error: { error: e.type, message: e.message, ...(e.details ? { details: e.details } : {}) },
      }
    }
    created++
    return { index, status: 'created' as const, link: deps.present(r) }
  })
  return { created, failed: items.length - created, results }
}
