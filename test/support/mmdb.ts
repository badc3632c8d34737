/**
 * A minimal MaxMind DB (MMDB v2) writer for tests: an IPv4 search tree with 24-bit records and a
 * data section of maps, strings and unsigned integers. Enough to make a small city database that
 * the `maxmind` reader opens like the real GeoLite2-City file.
 */
type Value = string | number | Value[] | { [k: string]: Value }

function control(type: number, size: number): Buffer {
  const ext = type > 7
  const head = (ext ? 0 : type) << 5
  let sizeBits: number
  let sizeBytes: Buffer
  if (size < 29) {
    sizeBits = size
    sizeBytes = Buffer.alloc(0)
  } else if (size < 285) {
    sizeBits = 29
    sizeBytes = Buffer.from([size - 29])
  } else {
    sizeBits = 30
    const n = size - 285
    sizeBytes = Buffer.from([n >> 8, n & 0xff])
  }
  return Buffer.concat([
    Buffer.from([head | sizeBits]),
    ext ? Buffer.from([type - 7]) : Buffer.alloc(0),
    sizeBytes,
  ])
}

function uint(type: number, n: number): Buffer {
  const bytes: number[] = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256)
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)])
}

function encode(v: Value): Buffer {
  if (typeof v === 'string') {
    const b = Buffer.from(v, 'utf8')
    return Buffer.concat([control(2, b.length), b])
  }
  if (typeof v === 'number') return v > 0xffffffff ? uint(9, v) : uint(6, v)
  if (Array.isArray(v)) return Buffer.concat([control(11, v.length), ...v.map(encode)])
  const entries = Object.entries(v)
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, x]) => [encode(k), encode(x)])])
}

type Rec = { node: number } | { data: number } | null

/** Builds an IPv4 MMDB mapping each CIDR network to its record. */
export function buildMmdb(
  networks: Array<{ cidr: string; record: Value }>,
  databaseType = 'Test-City',
): Buffer {
  const nodes: Array<[Rec, Rec]> = [[null, null]]
  const chunks: Buffer[] = []
  let dataSize = 0
  for (const { cidr, record } of networks) {
    const [addr, lenText] = cidr.split('/')
    const len = Number(lenText ?? 32)
    const ip = addr!.split('.').reduce((n, o) => n * 256 + Number(o), 0)
    const data = encode(record)
    const offset = dataSize
    chunks.push(data)
    dataSize += data.length
    let node = 0
    for (let i = 0; i < len; i++) {
      const bit = Math.floor(ip / 2 ** (31 - i)) % 2
      if (i === len - 1) {
        nodes[node]![bit] = { data: offset }
        break
      }
      const next = nodes[node]![bit]
      if (next && 'node' in next) node = next.node
      else {
        nodes.push([null, null])
        nodes[node]![bit] = { node: nodes.length - 1 }
        node = nodes.length - 1
      }
    }
  }
  const count = nodes.length
  const tree = Buffer.alloc(count * 6)
  const value = (r: Rec) => (r === null ? count : 'node' in r ? r.node : r.data + count + 16)
  nodes.forEach(([l, r], i) => {
    tree.writeUIntBE(value(l), i * 6, 3)
    tree.writeUIntBE(value(r), i * 6 + 3, 3)
  })
  const metadata = Buffer.concat([
    control(7, 9),
    encode('node_count'),
    uint(6, count),
    encode('record_size'),
    uint(5, 24),
    encode('ip_version'),
    uint(5, 4),
    encode('database_type'),
    encode(databaseType),
    encode('languages'),
    encode(['en']),
    encode('binary_format_major_version'),
    uint(5, 2),
    encode('binary_format_minor_version'),
    uint(5, 0),
    encode('build_epoch'),
    uint(9, 1_700_000_000),
    encode('description'),
    encode({ en: 'linkd test database' }),
  ])
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    ...chunks,
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from('MaxMind.com'),
    metadata,
  ])
}
