import Type, { type Static, type TSchema } from 'typebox'

/** A string enum emitted as `{type: 'string', enum}` (valid OpenAPI 3.0, unlike `const` unions). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
}

/**
 * OpenAPI 3.0 style nullable (`nullable: true`), understood by ajv and fast-json-stringify. An
 * enum lists `null` too: OpenAPI 3.0.3 (and ajv) check `enum` after `nullable`, so without it
 * null would be outside the allowed values.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const values = (schema as { enum?: unknown[] }).enum
  return Type.Unsafe<Static<T> | null>({
    ...schema,
    nullable: true,
    ...(Array.isArray(values) && !values.includes(null) && { enum: [...values, null] }),
  })
}

/** ISO 8601 UTC timestamp with milliseconds, e.g. 2026-11-21T10:00:00.000Z. */
export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-21T10:00:00.000Z'] })

import { PAGE_MAX, PAGE_SIZES } from './limits.js'

export { PAGE_MAX, PAGE_SIZES, DEFAULT_PAGE_SIZE } from './limits.js'

export const PageQuery = Type.Object({
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: PAGE_MAX,
      default: 1,
      description: 'Page number, starts at 1; at most 1,000,000',
    }),
  ),
  limit: Type.Optional(Type.Integer({ enum: [...PAGE_SIZES], description: 'Page size: 10, 20, 50 or 100' })),
  perPage: Type.Optional(Type.Integer({ enum: [...PAGE_SIZES], description: 'Alias of limit' })),
})
export type PageQuery = Static<typeof PageQuery>

/** The pagination envelope of every list: `{data, total, page, perPage, hasMore}`. */
export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    total: Type.Integer(),
    page: Type.Integer(),
    perPage: Type.Integer(),
    hasMore: Type.Boolean(),
  })
}
export interface PageOf<T> {
  data: T[]
  total: number
  page: number
  perPage: number
  hasMore: boolean
}

/** Error `error` values of the contract, with their status codes. */
export const ERROR_TYPES = {
  ValidationError: 400,
  /** A destination whose host (or a parent domain) is on one of the organization's safety lists. */
  DestinationBlocked: 400,
  StaleBatch: 400,
  Unauthorized: 401,
  Forbidden: 403,
  GamePaused: 403,
  GameArchived: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  RequestTimeout: 408,
  Conflict: 409,
  Gone: 410,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  Unprocessable: 422,
  RateLimitExceeded: 429,
  RequestHeaderFieldsTooLarge: 431,
  InternalError: 500,
  ServiceUnavailable: 503,
} as const
export type ErrorType = keyof typeof ERROR_TYPES

/** The error body, carried by every non-2xx response. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ examples: ['ValidationError'] }),
    message: Type.String(),
    statusCode: Type.Integer(),
    timestamp: Timestamp,
    path: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorBody', title: 'Error' },
)
export type ErrorBody = Static<typeof ErrorBody>

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })
