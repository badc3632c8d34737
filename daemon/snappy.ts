/**
 * Snappy compression (the raw block format of Parquet's SNAPPY pages) into one reused buffer: the
 * algorithm of snappyjs (MIT, Zhipeng Jia; hyparquet-writer's copy), its bytes written straight
 * into a typed array (hyparquet-writer's grows a writer byte by byte and cost a Parquet export
 * about a fifth of its time).
 */
const MAX_HASH_TABLE_BITS = 14
const MAX_OFFSET = 0xffff
const INPUT_MARGIN = 15

const hash = (key: number, shift: number) => Math.imul(key, 0x1e35a7bd) >>> shift
const load32 = (a: Uint8Array, i: number) => a[i]! | (a[i + 1]! << 8) | (a[i + 2]! << 16) | (a[i + 3]! << 24)
const equals32 = (a: Uint8Array, i: number, j: number) =>
  a[i] === a[j] && a[i + 1] === a[j + 1] && a[i + 2] === a[j + 2] && a[i + 3] === a[j + 3]

/** `input[from, from + length)` as a literal at `op`: the offset after it. */
function literal(out: Uint8Array, op: number, input: Uint8Array, from: number, length: number): number {
  const n = length - 1
  if (length <= 60) out[op++] = n << 2
  else {
    const bytes = n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4
    out[op++] = (59 + bytes) << 2
    for (let i = 0; i < bytes; i++) out[op++] = n >>> (i * 8)
  }
  if (length < 32) for (let i = 0; i < length; i++) out[op++] = input[from + i]!
  else {
    out.set(input.subarray(from, from + length), op)
    op += length
  }
  return op
}

/** A copy of `length` (4 to 64) bytes from `offset` back. */
function shortCopy(out: Uint8Array, op: number, offset: number, length: number): number {
  if (length < 12 && offset < 2048) {
    out[op++] = 1 + ((length - 4) << 2) + ((offset >>> 8) << 5)
    out[op++] = offset & 0xff
  } else {
    out[op++] = 2 + ((length - 1) << 2)
    out[op++] = offset & 0xff
    out[op++] = offset >>> 8
  }
  return op
}

function copy(out: Uint8Array, op: number, offset: number, length: number): number {
  while (length >= 68) {
    op = shortCopy(out, op, offset, 64)
    length -= 64
  }
  if (length > 64) {
    op = shortCopy(out, op, offset, 60)
    length -= 60
  }
  return shortCopy(out, op, offset, length)
}

/** A Snappy compressor: each result is a view of its buffer, valid until its next call. */
export function snappyCompressor(): (input: Uint8Array) => Uint8Array {
  const table = new Uint32Array(1 << MAX_HASH_TABLE_BITS)
  let out = new Uint8Array(1 << 16)
  return (input) => {
    const size = input.length
    const most = 32 + size + Math.ceil(size / 6)
    if (out.length < most) out = new Uint8Array(Math.max(most, 2 * out.length))
    let op = 0
    for (let n = size; ; n >>>= 7) {
      if (n < 0x80) {
        out[op++] = n
        break
      }
      out[op++] = (n & 0x7f) | 0x80
    }
    let bits = 1
    while (1 << bits <= size && bits <= MAX_HASH_TABLE_BITS) bits++
    bits--
    const shift = 32 - bits
    table.fill(0, 0, 1 << bits)

    let nextEmit = 0
    if (size >= INPUT_MARGIN) {
      const ipLimit = size - INPUT_MARGIN
      let ip = 1
      let nextHash = hash(load32(input, ip), shift)
      for (;;) {
        let skip = 32
        let nextIp = ip
        let candidate: number
        do {
          ip = nextIp
          const h = nextHash
          nextIp = ip + (skip++ >>> 5)
          if (ip > ipLimit) return finish(out, op, input, nextEmit)
          nextHash = hash(load32(input, nextIp), shift)
          candidate = table[h]!
          table[h] = ip
        } while (ip - candidate > MAX_OFFSET || !equals32(input, ip, candidate))
        op = literal(out, op, input, nextEmit, ip - nextEmit)
        do {
          const base = ip
          let matched = 4
          while (ip + matched < size && input[ip + matched] === input[candidate + matched]) matched++
          ip += matched
          op = copy(out, op, base - candidate, matched)
          nextEmit = ip
          if (ip >= ipLimit) return finish(out, op, input, nextEmit)
          table[hash(load32(input, ip - 1), shift)] = ip - 1
          const h = hash(load32(input, ip), shift)
          candidate = table[h]!
          table[h] = ip
        } while (ip - candidate <= MAX_OFFSET && equals32(input, ip, candidate))
        ip++
        nextHash = hash(load32(input, ip), shift)
      }
    }
    return finish(out, op, input, nextEmit)
  }
}

/** The last literal, and the compressed bytes. */
function finish(out: Uint8Array, op: number, input: Uint8Array, nextEmit: number): Uint8Array {
  if (nextEmit < input.length) op = literal(out, op, input, nextEmit, input.length - nextEmit)
  return out.subarray(0, op)
}
