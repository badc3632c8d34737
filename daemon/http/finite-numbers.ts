/**
 * Where validated input holds numbers that are not finite, as JSON pointers (`/requestLimit`).
 *
 * ajv's type coercion turns the strings "Infinity", "-Infinity" and "1e400" into ±Infinity for an
 * `integer` or `number` field and then skips `minimum`/`maximum` (they only test finite numbers):
 * such a value passed validation, was stored, and broke every later answer that serialized it.
 * JSON cannot carry a non-finite number, so one in validated input came from a coercion or from a
 * literal out of double range: either way the request is refused. Iterative, so that deeply
 * nested input cannot exhaust the stack.
 */
export function nonFinitePaths(data: unknown): string[] {
  const found: string[] = []
  const stack: Array<[unknown, string]> = [[data, '']]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, path] = next
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) found.push(path)
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}/${i}`])
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v))
        stack.push([x, `${path}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`])
    }
  }
  return found
}
