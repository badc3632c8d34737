/**
 * Run as its own process by s3-warnings.test.ts (the AWS SDK warns once per process): one upload
 * to a store that refuses the connection, then a warning of linkd's own; prints nothing itself.
 */
import { createServer } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { putFile } from '../../../daemon/modules/exports/s3.js'

const server = createServer((socket) => socket.destroy())
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const { port } = server.address() as { port: number }
const file = join(tmpdir(), `linkd-s3-warnings-${process.pid}`)
writeFileSync(file, 'x')
const target = {
  endpoint: `http://127.0.0.1:${port}`,
  region: 'us-east-1',
  bucket: 'lake',
  accessKeyId: 'a',
  secretAccessKey: 'b',
}
const guard = { allowPrivateNetworks: false, allowLoopback: true }
await putFile(target, 'k', file, 1, 'text/plain', { guard }).catch(() => {})
server.close()
process.emitWarning('a warning of linkd')
