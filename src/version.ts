import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The package root (holding package.json and daemon/db/migrations), found by walking up from this
 * module: works from the sources (tsx, vitest), from dist/ and from the dist/bundle chunks.
 */
let root: string | undefined
export function packageRoot(): string {
  if (root) return root
  let dir = dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return (root = dir)
    dir = dirname(dir)
  }
  throw new Error('package.json not found above the linkd installation')
}

let version: string | undefined
/** The package version (daemon and CLI are released together). */
export function packageVersion(): string {
  if (version) return version
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown }
  return (version = typeof pkg.version === 'string' ? pkg.version : '0.0.0')
}
