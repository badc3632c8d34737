/**
 * A free loopback port. Its own module: postgres.ts needs it and processes.ts imports postgres.ts,
 * so no import cycle leaves processes.ts's top-level check uninitialised (npm run screenshots).
 */
import { createServer } from 'node:net'

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      srv.close(() => resolve(port))
    })
  })
}
