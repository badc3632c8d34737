import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { Page, PageQuery } from '../../../src/contract/common.js'
import {
  SAFETY_LIMITS,
  SafetyList,
  SafetyListParams,
  UploadSafetyListQuery,
} from '../../../src/contract/safety.js'
import { principalOf } from '../../http/auth.js'
import { AppError } from '../../http/errors.js'
import { errorRef } from '../../http/openapi.js'
import type { SafetyService } from './api.js'
import { drain, FeedUpload, feedBytes, streamBodies } from './upload.js'

const tags = ['Safety']

/** Safety lists: upload (create or replace), list, get, delete. */
export function safetyRoutes(deps: { safety: SafetyService }) {
  const { safety } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    const org = (req: FastifyRequest) => principalOf(req).organizationId

    // The upload in a scope of its own: its body is the file as sent (the others take JSON).
    await app.register(async (scope) => {
      streamBodies(scope)
      scope.withTypeProvider<TypeBoxTypeProvider>().post(
        '/api/safety/lists',
        {
          config: { auth: 'safety:write' },
          schema: {
            tags,
            summary: 'Upload a safety list (a feed file as the body; the same name replaces that list)',
            description: [
              'The body is the file as downloaded (any Content-Type, optionally `Content-Encoding: gzip`): hosts format (`0.0.0.0 evil.example` lines, as StevenBlack/hosts), one domain a line (as phishing.army), or URLhaus CSV (the host of each URL). Comments (`#`, `!`) and blank lines are skipped; `skipped` counts the other lines that hold no host.',
              `A listed host blocks itself and its subdomains. Limits: ${SAFETY_LIMITS.listsMax} lists per organization (409 beyond), ${SAFETY_LIMITS.entriesMax.toLocaleString('en-US')} hosts per list (400 beyond), ${SAFETY_LIMITS.uploadBytesMax} bytes per file after decompression (413).`,
              "A new name creates a list; an existing name replaces that list's hosts (its id stays). Link destinations on the lists are refused from then on (400 DestinationBlocked); links already pointing at them are flagged in the background (they answer a warning page, and link.flagged is sent), and so are custom domains' root redirects (`rootRedirectFlagged`; `/` answers the warning page).",
            ].join('\n\n'),
            querystring: UploadSafetyListQuery,
            response: {
              201: SafetyList,
              400: errorRef('No host in the file, more hosts than the limit, or bad gzip'),
              409: errorRef('The organization already has the most lists allowed'),
              413: errorRef('The file is larger than the limit'),
            },
          },
        },
        async (req, reply) => {
          const body = req.body as unknown
          if (!(body instanceof FeedUpload))
            throw new AppError('ValidationError', 'the body must be the list file', [
              { field: 'body', message: 'is required' },
            ])
          const encoding = req.headers['content-encoding']
          try {
            const bytes = feedBytes(body, typeof encoding === 'string' ? encoding : undefined)
            return reply.code(201).send(await safety.upload(org(req), req.query, bytes))
          } catch (err) {
            if (!(err instanceof AppError && err.type === 'PayloadTooLarge')) await drain(body)
            throw err
          }
        },
      )
    })

    app.get(
      '/api/safety/lists',
      {
        config: { auth: 'safety:read' },
        schema: {
          tags,
          summary: 'List the safety lists (by name)',
          querystring: PageQuery,
          response: { 200: Page(SafetyList) },
        },
      },
      async (req) => safety.list(org(req), req.query),
    )

    app.get(
      '/api/safety/lists/:id',
      {
        config: { auth: 'safety:read' },
        schema: {
          tags,
          summary: 'Get a safety list',
          params: SafetyListParams,
          response: { 200: SafetyList },
        },
      },
      async (req) => safety.get(org(req), req.params.id),
    )

    app.delete(
      '/api/safety/lists/:id',
      {
        config: { auth: 'safety:write' },
        schema: {
          tags,
          summary: 'Delete a safety list (links and domain roots it flagged are cleared in the background)',
          params: SafetyListParams,
          response: { 204: Type.Null({ description: 'Deleted' }) },
        },
      },
      async (req, reply) => {
        await safety.delete(org(req), req.params.id)
        return reply.code(204).send(null)
      },
    )
  }
}
