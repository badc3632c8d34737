/** How a link looks on the terminal: the columns of a list and the fields of one link. */
import type { Link } from '../../../contract/links.js'
import { ruleText } from '../../../format/link-rules.js'
import { variantText } from '../../../format/link-variants.js'
import { when, type Column, type Field } from '../../output.js'

export function linkColumns(tty: boolean): Column<Link>[] {
  return [
    // On a terminal the short code (any command takes it) stands for the long short URL.
    { header: 'ID', value: (l) => l.id },
    { header: 'CODE', value: (l) => l.shortCode, only: 'tty' },
    { header: 'SHORT URL', value: (l) => l.shortUrl, only: 'piped' },
    { header: 'DESTINATION', value: (l) => l.destinationUrl, fit: 'flex' },
    { header: 'TITLE', value: (l) => l.title, fit: 'flex', drop: 3 },
    // A link on a safety list answers a warning page: said where its status is.
    { header: 'STATUS', value: (l) => (l.flagged ? `${l.status}, flagged` : l.status), drop: 1 },
    { header: 'CLICKS', value: (l) => l.clicks, drop: 2 },
    { header: 'TAGS', value: (l) => l.tags.join(tty ? ', ' : ','), fit: 'wrap', drop: 4 },
    { header: 'CREATED', value: (l) => when(l.createdAt, tty), drop: 5 },
    { header: 'EXPIRES', value: (l) => when(l.expiresAt, tty), drop: 6 },
  ]
}

export function linkFields(l: Link, tty: boolean): Field[] {
  const meta = Object.keys(l.metadata).length > 0 ? JSON.stringify(l.metadata) : ''
  return [
    ['ID', l.id],
    ['SHORT URL', l.shortUrl],
    ['SHORT CODE', l.shortCode],
    ['DESTINATION', l.destinationUrl],
    ['TITLE', l.title],
    ['STATUS', l.status],
    ...(l.flagged
      ? ([
          [
            'FLAGGED',
            `${l.flagged.host} is on the safety list "${l.flagged.list}" (since ${when(l.flagged.flaggedAt, tty)}): visits get a warning page`,
          ],
        ] as Field[])
      : []),
    ['CLICKS', l.clicks],
    ['REDIRECT', l.redirectType],
    ['TAGS', l.tags.join(tty ? ', ' : ',')],
    ['METADATA', meta],
    ['DOMAIN', l.customDomainId],
    ['EXPIRES', when(l.expiresAt, tty)],
    ['EXPIRED URL', l.expiredUrl],
    ['MAX CLICKS', l.maxClicks],
    ['STARTS', when(l.startsAt, tty)],
    ['FORWARD QUERY', l.forwardQuery ? 'yes' : 'no'],
    ['PASSWORD', l.passwordProtected ? 'yes (protected)' : 'no'],
    ['OG TITLE', l.og?.title ?? null],
    ['OG DESCRIPTION', l.og?.description ?? null],
    ['OG IMAGE', l.og?.imageUrl ?? null],
    ...l.rules.map((r, i): Field => [`RULE ${i + 1}`, ruleText(r)]),
    ...l.variants.map((v, i): Field => [`VARIANT ${i + 1}`, variantText(v)]),
    ['CREATED', when(l.createdAt, tty)],
    ['UPDATED', when(l.updatedAt, tty)],
  ]
}
