/**
 * Writing one object to S3 or an S3-compatible store with the official client, loaded on the first
 * upload only (start-up and the single binary's start never load the AWS SDK). A custom endpoint
 * passes the webhooks' SSRF guard and the connection is pinned to the vetted address; it is
 * addressed path-style (MinIO, R2, s3rver). The client makes one attempt: the service retries.
 */
import { createReadStream } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import {
  pinnedLookup,
  systemResolver,
  vetTarget,
  type GuardPolicy,
  type Resolver,
} from '../webhooks/index.js'
import { unreachableText } from '../../socket-errors.js'

export interface S3Target {
  endpoint: string | null
  region: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
}

export interface S3Options {
  guard: GuardPolicy
  /** DNS of custom endpoints (default the system's). */
  resolve?: Resolver
  /** Connection and whole-request timeouts (ms). */
  connectTimeoutMs?: number
  requestTimeoutMs?: number
}

/** Puts the file at `path` (`size` bytes) as `key`; rejects with the store's error. */
export async function putFile(
  target: S3Target,
  key: string,
  path: string,
  size: number,
  contentType: string,
  opts: S3Options,
): Promise<void> {
  // The SDK's notice that its releases after January 2027 need Node.js 22 is for its users, not
  // linkd's operators (linkd ships its SDK); silenced as the SDK documents, unless set otherwise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3')
  let agents = {}
  if (target.endpoint !== null) {
    const resolve = opts.resolve ?? systemResolver
    const lookup = pinnedLookup(await vetTarget(new URL(target.endpoint), { resolve, ...opts.guard }))
    agents = { httpAgent: new http.Agent({ lookup }), httpsAgent: new https.Agent({ lookup }) }
  }
  const client = new S3Client({
    region: target.region,
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    maxAttempts: 1,
    // No checksum trailers (aws-chunked with a CRC trailer): many S3-compatible stores refuse or
    // store them as data; the request is signed as usual.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(target.endpoint !== null ? { endpoint: target.endpoint, forcePathStyle: true } : {}),
    requestHandler: {
      ...agents,
      connectionTimeout: opts.connectTimeoutMs ?? 10_000,
      requestTimeout: opts.requestTimeoutMs ?? 600_000,
    },
  })
  try {
    await client.send(
      new PutObjectCommand({
        Bucket: target.bucket,
        Key: key,
        Body: createReadStream(path),
        ContentLength: size,
        ContentType: contentType,
      }),
    )
  } finally {
    client.destroy()
  }
}

/** A store's error in a few words, never a credential (the SDK's messages carry none). */
export function s3ErrorText(err: unknown): string {
  const e = err as {
    name?: string
    message?: string
    $metadata?: { httpStatusCode?: number }
  }
  const unreachable = unreachableText(err)
  if (unreachable) return unreachable
  const status = e.$metadata?.httpStatusCode
  const text = `${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e.message ?? String(err)}`
  return (status ? `${text} (HTTP ${status})` : text).slice(0, 500)
}

/** Codes of a 4xx that a later attempt can pass (the store was busy or slow, not refusing). */
const TRANSIENT_CODES = new Set([
  'RequestTimeout',
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
])

/**
 * Whether the store refused the request itself (4xx: wrong key, no such bucket, no permission):
 * sending it again gets the same answer. Timeouts, throttling, 5xx and network errors are not.
 */
export function isStoreRefusal(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } }
  const status = e.$metadata?.httpStatusCode
  if (status === undefined || status < 400 || status >= 500 || status === 408 || status === 429) return false
  return !TRANSIENT_CODES.has(e.name ?? '')
}
