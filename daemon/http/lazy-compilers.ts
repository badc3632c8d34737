import AjvCompiler from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'
import { settleNulls, unstorableValues } from './json-guards.js'

type Serialize = (data: unknown) => string
type Validate = ((data: unknown) => unknown) & { errors?: unknown }
type RouteSchema = { schema: unknown; method: string; url: string; httpPart?: string }
type Factory = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => unknown
/** What Fastify passes the validator factory: its `ajv` server option. */
type AjvOptions = { customOptions?: Record<string, unknown> } & Record<string, unknown>

/**
 * Fastify's validator and serializer factories, compiling each route's function on first use
 * rather than at start-up (~150 ms and several MB saved). Querystrings, path parameters and
 * headers are text: their types are coerced (`?limit=20`, `?tag=a` as `['a']`). A JSON body has
 * types of its own: a wrong one is a 400 naming the field, never coerced (`true` is no string).
 * Every route's validators also reject non-finite numbers and NUL text (see unstorableValues);
 * in bodies, a null where the schema takes none is settled first (see settleNulls).
 */
export function lazyCompilers(): NonNullable<FastifyServerOptions['schemaController']> {
  const validators = AjvCompiler() as unknown as Factory
  const serializers = SerializerSelector() as unknown as Factory
  return {
    compilersFactory: {
      buildValidator(externalSchemas: unknown, serverOptions: unknown) {
        const options = serverOptions as AjvOptions
        const compileText = validators(externalSchemas, options) as (r: RouteSchema) => Validate
        const bodyOptions = { ...options, customOptions: { ...options.customOptions, coerceTypes: false } }
        const compileBody = validators(externalSchemas, bodyOptions) as (r: RouteSchema) => Validate
        return (route: RouteSchema): Validate => {
          let validate: Validate | undefined
          // Fastify reads `errors` off the function it was given, so mirror the compiled one's.
          const lazy: Validate = (data) => {
            validate ??= (route.httpPart === 'body' ? compileBody : compileText)(route)
            const nulls = route.httpPart === 'body' ? settleNulls(route.schema, data) : []
            const result = nulls.length === 0 && validate(data)
            lazy.errors = validate.errors
            // ajv coerces "1e400" to Infinity and then skips minimum/maximum; PostgreSQL refuses
            // NUL in text: refuse both here.
            const bad = result === true ? unstorableValues(data) : nulls
            if (bad.length === 0) return result
            lazy.errors = bad.map(({ path, message, type }) => ({
              instancePath: path,
              keyword: 'type',
              params: type === undefined ? {} : { type },
              message,
            }))
            return false
          }
          return lazy
        }
      },
      buildSerializer(externalSchemas: unknown, options: unknown) {
        const compile = serializers(externalSchemas, options) as (r: RouteSchema) => Serialize
        return (route: RouteSchema): Serialize => {
          let serialize: Serialize | undefined
          return (data) => (serialize ??= compile(route))(data)
        }
      },
    },
  } as NonNullable<FastifyServerOptions['schemaController']>
}
