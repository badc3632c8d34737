/** The link create and edit forms: their fields and the request bodies they make. */
import type { CreateLinkBody, Link, UpdateLinkBody } from '../../contract/links.js'
import type { FormField } from '../components/form.js'

const tagsOf = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')

export function createFields(): FormField[] {
  return [
    { name: 'destinationUrl', label: 'Destination URL' },
    { name: 'title', label: 'Title (optional)' },
    { name: 'customSlug', label: 'Custom short code (optional)' },
    { name: 'tags', label: 'Tags, comma-separated (optional)' },
  ]
}

export function createBody(values: Record<string, string>): CreateLinkBody {
  const body: CreateLinkBody = { destinationUrl: (values.destinationUrl ?? '').trim() }
  if (values.title?.trim()) body.title = values.title.trim()
  if (values.customSlug?.trim()) body.customSlug = values.customSlug.trim()
  const tags = tagsOf(values.tags ?? '')
  if (tags.length > 0) body.tags = tags
  return body
}

export function editFields(link: Link): FormField[] {
  return [
    { name: 'destinationUrl', label: 'Destination URL', value: link.destinationUrl },
    { name: 'title', label: 'Title (empty: none)', value: link.title ?? '' },
    { name: 'tags', label: 'Tags, comma-separated', value: link.tags.join(', ') },
  ]
}

/** Only what changed; null when nothing did. */
export function editBody(link: Link, values: Record<string, string>): UpdateLinkBody | null {
  const body: UpdateLinkBody = {}
  const url = (values.destinationUrl ?? '').trim()
  if (url !== link.destinationUrl) body.destinationUrl = url
  const title = (values.title ?? '').trim()
  if (title !== (link.title ?? '')) body.title = title === '' ? null : title
  const tags = tagsOf(values.tags ?? '')
  if (tags.join('\n') !== link.tags.join('\n')) body.tags = tags
  return Object.keys(body).length === 0 ? null : body
}
