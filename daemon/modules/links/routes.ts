import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { IdParams, Page } from '../../../src/contract/common.js'
import {
  BulkCreateBody,
  BulkCreateResult,
  CreateLinkBody,
  ImportLinksBody,
  ImportLinksResult,
  Link,
  ListLinksQuery,
  UpdateLinkBody,
} from '../../../src/contract/links.js'
import { IMPORT_LIMITS, LINK_LIMITS } from '../../../src/contract/limits.js'
import { principalOf } from '../../http/auth.js'
import { validationDetails } from '../../http/validation-details.js'
import { errorRef } from '../../http/openapi.js'
import type { ItemValidator, LinkService } from './api.js'

const tags = ['Links']

/** Checks a bulk item with the app's own ajv (same options as a single create body). */
function itemValidator(req: FastifyRequest): ItemValidator {
  const validate = req.compileValidationSchema(CreateLinkBody, 'body')
  return (item) => {
    if (validate(item)) return undefined
    const details = validationDetails(validate.errors ?? [], 'item', item)
    return details.length ? details : [{ field: 'item', message: 'is invalid' }]
  }
}

/** A bulk request may carry 1,000 full create bodies. */
export const BULK_BODY_LIMIT = 16 * 1024 * 1024

export function linkRoutes(deps: { links: LinkService; bodyLimitBytes: number }) {
  const { links } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.post(
      '/api/use/links',
      {
        config: { auth: 'links:write' },
        schema: {
          tags,
          summary: 'Create a short link',
          description:
            'Short code: the `customSlug` (3-64 letters, digits, hyphens, underscores) or 7 random characters. 409 when the code is taken on the domain.',
          body: CreateLinkBody,
          response: {
            201: Link,
            409: errorRef('Short code already in use on this domain'),
            422: errorRef('The custom domain (customDomainId or domain) is unknown or not verified'),
          },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await links.create(principalOf(req).organizationId, req.body)),
    )

    app.get(
      '/api/use/links',
      {
        config: { auth: 'links:read' },
        schema: {
          tags,
          summary: 'List links (newest first unless sorted otherwise)',
          querystring: ListLinksQuery,
          response: { 200: Page(Link) },
        },
      },
      async (req) => links.list(principalOf(req).organizationId, req.query),
    )

    app.post(
      '/api/use/links/bulk',
      {
        config: { auth: 'links:write' },
        // 1,000 items of up to ~12 KB each (URL, title, tags, 10 KB of metadata).
        bodyLimit: Math.max(deps.bodyLimitBytes, BULK_BODY_LIMIT),
        schema: {
          tags,
          summary: `Create up to ${LINK_LIMITS.bulkMax} links; the valid ones commit together`,
          description:
            'Each item is a create body, validated on its own; `results` has one entry per item (by `index`) with the link or the error.',
          body: BulkCreateBody,
          response: { 200: BulkCreateResult },
        },
      },
      async (req) => links.bulkCreate(principalOf(req).organizationId, req.body.links, itemValidator(req)),
    )

    app.post(
      '/api/use/links/import',
      {
        config: { auth: 'links:write' },
        // The file as a JSON string: room for its escapes (a quote becomes two characters).
        bodyLimit: Math.max(deps.bodyLimitBytes, 2 * IMPORT_LIMITS.fileBytesMax + 65_536),
        schema: {
          tags,
          summary: "Import another shortener's export file (Bitly, Shlink, YOURLS, Kutt) or linkd's own",
          description:
            "Each row is checked and created like a bulk item: a failed row (a taken short code, a bad URL) writes nothing and is named by its line; the valid rows commit together. Rows keep their short code, title, tags and creation date (a linkd export its status inactive). A row whose short URL host is a verified custom domain of yours goes on that domain; any other host (bit.ly, the other product's own domain) where a new link goes by default. `dryRun` checks every row and writes nothing. A file that cannot be read (no usable header, not UTF-8) is a 400; over 10 MB or 10,000 rows a 413 (linkctl links import sends any size in parts).",
          body: ImportLinksBody,
          response: { 200: ImportLinksResult },
        },
      },
      async (req) => links.importFile(principalOf(req).organizationId, req.body, itemValidator(req)),
    )

    app.get(
      '/api/use/links/:id',
      {
        config: { auth: 'links:read' },
        schema: { tags, summary: 'Get a link', params: IdParams, response: { 200: Link } },
      },
      async (req) => links.get(principalOf(req).organizationId, req.params.id),
    )

    app.patch(
      '/api/use/links/:id',
      {
        config: { auth: 'links:write' },
        schema: {
          tags,
          summary: 'Update a link',
          description:
            'status may be set to active or inactive. An expired link comes back (active) with a future expiresAt or expiresAt null. A new shortCode or customDomainId moves the link; the old short URL then answers 404. While the short URL is in use (QR codes, or human clicks in the last 30 days) such a move needs force: true (409 otherwise).',
          params: IdParams,
          body: UpdateLinkBody,
          response: {
            200: Link,
            409: errorRef(
              'The new short code is already in use on the target domain, or the current short URL is in use (QR codes, or clicks in the last 30 days) and force is not true: the message names them',
            ),
            422: errorRef(
              'The link is expired (give a new expiresAt), or the custom domain is unknown or not verified',
            ),
          },
        },
      },
      async (req) => links.update(principalOf(req).organizationId, req.params.id, req.body),
    )

    app.delete(
      '/api/use/links/:id',
      {
        config: { auth: 'links:delete' },
        schema: {
          tags,
          summary: 'Delete a link',
          params: IdParams,
          response: { 204: Type.Null({ description: 'Deleted' }) },
        },
      },
      async (req, reply) => {
        await links.delete(principalOf(req).organizationId, req.params.id)
        return reply.code(204).send(null)
      },
    )
  }
}
