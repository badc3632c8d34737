/** Generated safety feeds (tests and the bench): `0.0.0.0 host-<i>.feed.test` lines, in chunks. */
export function* hostsFeed(count: number, lines = 10_000): Generator<string> {
  for (let i = 0; i < count; i += lines) {
    let chunk = ''
    for (let j = i; j < Math.min(count, i + lines); j++) chunk += `0.0.0.0 host-${j}.feed.test\n`
    yield chunk
  }
}
