import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  GenerateSignatureBody,
  GenerateSignatureResult,
  ValidateUrlBody,
  ValidateUrlResult,
  VerifySignatureBody,
  VerifySignatureResult,
} from '../../../src/contract/webhooks.js'
import { deliveryHeaders, signPayload, verifySignature } from '../../../src/contract/webhook-signature.js'
import type { Clock } from '../../clock.js'
import type { WebhookService } from './api.js'

const tags = ['Webhooks']

/** Receiver helpers: check a URL, sign a payload, verify a signature. */
export function webhookUtilityRoutes(deps: { webhooks: WebhookService; clock: Clock }) {
  const { webhooks } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.post(
      '/api/webhooks/utilities/validate-url',
      {
        config: { auth: 'webhooks:read' },
        schema: {
          tags,
          summary: 'Check a receiver URL: errors, warnings, suggestions and a security score (0-100)',
          body: ValidateUrlBody,
          response: { 200: ValidateUrlResult },
        },
      },
      async (req) => webhooks.validateUrl(req.body.url),
    )

    app.post(
      '/api/webhooks/utilities/generate-signature',
      {
        config: { auth: 'webhooks:read' },
        schema: {
          tags,
          summary: 'Sign a payload as a delivery would be: signature and the delivery headers',
          description: 'timestamp defaults to now (Unix ms). Signed string: `<timestamp>.<payload>`.',
          body: GenerateSignatureBody,
          response: { 200: GenerateSignatureResult },
        },
      },
      async (req) => {
        const timestamp = req.body.timestamp ?? deps.clock.now()
        const headers = deliveryHeaders({
          secret: req.body.secret,
          rawBody: req.body.payload,
          event: eventOf(req.body.payload),
          deliveryId: 'dlv_example-1',
          attempt: 1,
          timestamp,
        })
        return {
          signature: signPayload(req.body.secret, timestamp, req.body.payload),
          timestamp,
          signedString: `${timestamp}.${req.body.payload}`,
          headers,
        }
      },
    )

    app.post(
      '/api/webhooks/utilities/verify-signature',
      {
        config: { auth: 'webhooks:read' },
        schema: {
          tags,
          summary: 'Verify a signature: valid, or the reason (malformed, mismatch, stale beyond 5 minutes)',
          description:
            "A signature is valid only within 5 minutes of server time: the example's timestamp is fixed, so it answers `stale`; verify a signature of the current time (from generate-signature) to see `valid: true`.",
          body: VerifySignatureBody,
          response: { 200: VerifySignatureResult },
        },
      },
      async (req) => verifySignature({ ...req.body, now: deps.clock.now() }),
    )
  }
}

/** The `event` of a JSON payload, for the example X-Webhook-Event header. */
function eventOf(payload: string): string {
  try {
    const e = (JSON.parse(payload) as { event?: unknown }).event
    return typeof e === 'string' ? e : 'link.created'
  } catch {
    return 'link.created'
  }
}
