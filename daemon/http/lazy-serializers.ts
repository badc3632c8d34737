import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

type Serialize = (data: unknown) => string
type RouteSchema = { schema: unknown; method: string; url: string; httpStatus: string }

/**
 * Fastify's own response-serializer factory, compiling each route's serializer on its first
 * response instead of before the server is ready: dozens of large response schemas otherwise
 * cost ~100 ms of start-up, mostly for routes a given process rarely serves.
 */
export function lazySerializers(): NonNullable<FastifyServerOptions['schemaController']> {
  const factory = SerializerSelector()
  return {
    compilersFactory: {
      buildSerializer(externalSchemas: unknown, options: unknown) {
        const compile = factory(externalSchemas as never, options as never) as unknown as (
          r: RouteSchema,
        ) => Serialize
        return (route: RouteSchema): Serialize => {
          let serialize: Serialize | undefined
          return (data) => (serialize ??= compile(route))(data)
        }
      },
    },
  } as NonNullable<FastifyServerOptions['schemaController']>
}
