import type { RouteOptions } from 'fastify'

type HookName = 'preHandler' | 'preSerialization' | 'onSend' | 'onResponse' | 'onRequestAbort'

/**
 * Adds a hook to one route from an `onRoute` listener, so that cross-cutting work (idempotency,
 * activity logging) runs only on the routes that need it and not on the redirect hot path.
 */
export function addRouteHook(route: RouteOptions, name: HookName, hook: unknown): void {
  const current = route[name] as unknown
  const list = current === undefined ? [] : Array.isArray(current) ? current : [current]
  ;(route as unknown as Record<HookName, unknown>)[name] = [...list, hook]
}
