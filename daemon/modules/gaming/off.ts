/**
 * Gaming turned off (NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED=false): none of the parts'
 * routes, hooks or jobs is installed. In their place, one hidden catch-all per gaming prefix
 * answers 404 saying so. The prefixes come from the parts' own route table (their routes are
 * registered on a throwaway server, never listening), so a new gaming route is covered too.
 */
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify'
import { AppError } from '../../http/errors.js'
import type { Module } from '../module.js'

export const GAMING_OFF_MESSAGE =
  'gaming is turned off on this linkd (NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED=false)'

export const gamingOff = () => new AppError('NotFound', GAMING_OFF_MESSAGE)

/** The paths the gaming parts' routes would register. */
export async function gamingPaths(modules: Module[]): Promise<string[]> {
  const scratch = Fastify({ logger: false })
  const paths = new Set<string>()
  scratch.addHook('onRoute', (r: RouteOptions) => {
    paths.add(r.url)
  })
  try {
    for (const m of modules) if (m.routes) await scratch.register(m.routes)
    await scratch.after()
  } finally {
    await scratch.close()
  }
  return [...paths]
}

/**
 * The static part of each path before its first parameter or wildcard, without a trailing slash;
 * a prefix under another one is dropped (`/a/b` covers `/a/b/c`).
 */
export function gamingPrefixes(paths: string[]): string[] {
  const statics = paths.map((p) => {
    const segments: string[] = []
    for (const s of p.split('/').slice(1)) {
      if (s === '' || s.startsWith(':') || s.includes('*')) break
      segments.push(s)
    }
    return `/${segments.join('/')}`
  })
  const sorted = [...new Set(statics)].sort()
  const kept: string[] = []
  for (const p of sorted) {
    // A prefix of one segment (`/api`) would cover other modules' routes: never.
    if (p.split('/').length < 3) throw new Error(`gaming route prefix too short: ${p}`)
    if (!kept.some((k) => p.startsWith(`${k}/`))) kept.push(p)
  }
  return kept
}

/** The module installed instead of gaming's parts: the 404 catch-alls, hidden from OpenAPI and discovery. */
export function gamingOffModule(parts: Module[]): Module {
  return {
    name: 'gaming',
    async routes(app: FastifyInstance) {
      for (const prefix of gamingPrefixes(await gamingPaths(parts)))
        for (const url of [prefix, `${prefix}/*`])
          app.route({
            method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
            url,
            schema: { hide: true },
            handler: async () => {
              throw gamingOff()
            },
          })
    },
  }
}
