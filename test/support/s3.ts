/** An S3-protocol server for tests (s3rver, dev only) and the official client to read it back. */
import { createRequire } from 'node:module'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>
  close(): Promise<void>
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass

/** s3rver's fixed credentials. */
export const S3RVER_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

export interface TestS3 {
  endpoint: string
  client: S3Client
  /** Every key of the bucket. */
  keys(bucket: string): Promise<string[]>
  /** An object's bytes. */
  get(bucket: string, key: string): Promise<Buffer>
  /** Downloads every object of the bucket under `dir`, keys as paths; returns `dir`. */
  download(bucket: string): Promise<string>
  close(): Promise<void>
}

export async function startS3(buckets: string[]): Promise<TestS3> {
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: mkdtempSync(join(tmpdir(), 's3rver-')),
    configureBuckets: buckets.map((name) => ({ name })),
  })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    // A copy: the SDK adds fields to the credentials object it is given.
    credentials: { ...S3RVER_KEY },
  })
  const s3: TestS3 = {
    endpoint,
    client,
    async keys(bucket) {
      const out = await client.send(new ListObjectsV2Command({ Bucket: bucket }))
      return (out.Contents ?? []).map((o) => o.Key!).sort()
    },
    async get(bucket, key) {
      const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
      return Buffer.from(await out.Body!.transformToByteArray())
    },
    async download(bucket) {
      const dir = mkdtempSync(join(tmpdir(), 's3-download-'))
      for (const key of await s3.keys(bucket)) {
        mkdirSync(dirname(join(dir, key)), { recursive: true })
        writeFileSync(join(dir, key), await s3.get(bucket, key))
      }
      return dir
    },
    async close() {
      client.destroy()
      await server.close()
    },
  }
  return s3
}
