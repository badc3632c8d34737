// The launcher of the single executable (bin/build-binary.js): unpacks the package once per build
// into a private cache directory, then runs its linkd, or linkctl when the executable is named
// linkctl or called as `linkd ctl`. CommonJS: Node 20 runs a single executable's main script as
// CommonJS whose `require` reaches only built-in modules, so the unpacked entry is loaded through a
// `createRequire` of its own directory, and a one-line shim there `import()`s it.
'use strict'
const { getAsset } = require('node:sea')
const { existsSync, mkdirSync, renameSync, rmSync, writeFileSync, chmodSync } = require('node:fs')
const { createRequire } = require('node:module')
const { homedir } = require('node:os')
const { basename, dirname, join } = require('node:path')
const { gunzipSync } = require('node:zlib')

const id = getAsset('linkd.id', 'utf8')
const cache =
  process.env.LINKD_BINARY_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'linkd')
const dir = join(cache, id)

if (!existsSync(join(dir, '.complete'))) {
  // Unpacked beside, then renamed: a crash or a second process never sees half a package.
  mkdirSync(cache, { recursive: true, mode: 0o700 })
  const tmp = `${dir}.${process.pid}.tmp`
  rmSync(tmp, { recursive: true, force: true })
  const data = gunzipSync(Buffer.from(getAsset('linkd.pkg')))
  const headerLength = data.readUInt32BE(0)
  const entries = JSON.parse(data.subarray(4, 4 + headerLength).toString('utf8'))
  let at = 4 + headerLength
  for (const [path, mode, size] of entries) {
    const file = join(tmp, path)
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    writeFileSync(file, data.subarray(at, at + size), { mode })
    at += size
  }
  writeFileSync(join(tmp, 'binary-shim.cjs'), 'module.exports = (url) => import(url)\n')
  writeFileSync(join(tmp, '.complete'), '')
  chmodSync(tmp, 0o700)
  try {
    renameSync(tmp, dir)
  } catch (err) {
    // Another process unpacked the same build first: use its copy.
    rmSync(tmp, { recursive: true, force: true })
    if (!existsSync(join(dir, '.complete'))) throw err
  }
}

const args = process.argv.slice(2)
const ctl = basename(process.argv0).startsWith('linkctl') || args[0] === 'ctl'
if (args[0] === 'ctl') args.shift()
const entry = join(dir, 'bin', ctl ? 'linkctl.js' : 'linkd.js')
process.argv = [process.argv[0], entry, ...args]
createRequire(join(dir, 'binary-shim.cjs'))('./binary-shim.cjs')(
  require('node:url').pathToFileURL(entry).href,
)
