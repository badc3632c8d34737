import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { findBinary } from './binaries.js'

/**
 * A self-signed P-256 certificate made with openssl in `dir` (`<name>.pem`, `<name>-key.pem`),
 * for test listeners: pebble's endpoint, the custom-domain TLS listener.
 */
export function selfSignedCertificate(
  dir: string,
  opts: { name: string; cn: string; san?: string; days?: number },
): { cert: string; key: string } {
  const cert = join(dir, `${opts.name}.pem`)
  const key = join(dir, `${opts.name}-key.pem`)
  execFileSync(
    findBinary('openssl') ?? 'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', String(opts.days ?? 1), '-subj', `/CN=${opts.cn}`],
      ...(opts.san ? ['-addext', `subjectAltName=${opts.san}`] : []),
    ],
    { stdio: 'ignore' },
  )
  return { cert, key }
}
