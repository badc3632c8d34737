/**
 * The URL a worker thread starts from: `file` (a worker module's name, `render-worker`) beside the
 * module starting it (`here`, its import.meta.url), as tsc emits both (`dist/daemon/…`) or as the
 * daemon's bundle ships it (an entry of its own beside main.js, `here` then being main.js's); from
 * the TypeScript sources (vitest), through tsx.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

export function workerEntry(file: string, here: string): URL {
  if (!here.endsWith('.ts')) return new URL(`./${file}.js`, here)
  const tsx = pathToFileURL(join(dirname(createRequire(here).resolve('tsx/esm/api')), 'index.mjs')).href
  const entry = new URL(`./${file}.ts`, here).href
  const boot = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry)})`
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`)
}
