#!/usr/bin/env node
// `npm run build:binary`: one executable, dist/binary/linkd (Node's single executable application),
// that runs linkd and, named `linkctl` or as `linkd ctl`, the CLI and TUI (decision single-binary).
// It carries the packed package and the run-time closure of the bundle's externals as one gzipped
// archive, unpacked once per build into a private cache directory by the launcher (binary-main.cjs):
// better-sqlite3's addon cannot load from memory, and the bundle reads its migrations and data files
// from disk. Needs `npm run build` first (the npm script runs it).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'dist/binary')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

/** The package's own files (as `npm pack` ships them) the programs need at run time. */
const OWN = ['package.json', 'bin/linkd.js', 'bin/linkctl.js', 'dist/bundle', 'daemon/db/migrations']
/** What the bundle loads from node_modules at run time: its externals and the files it reads. */
const RUNTIME = [
  'better-sqlite3',
  '@fastify/swagger-ui',
  'openapi-to-postmanv2',
  'undici',
  'acme-client',
  '@aws-sdk/client-s3',
  'ajv',
  'ajv-formats',
  'pngjs',
  '@ip-location-db/geo-whois-asn-country-mmdb',
  '@resvg/resvg-wasm',
]
/** Inside better-sqlite3 only its JavaScript and the built addon are needed (not its C sources). */
const SKIP = [
  /^node_modules\/better-sqlite3\/(deps|src)\//,
  /^node_modules\/better-sqlite3\/build\/(?!Release\/better_sqlite3\.node$)/,
]

/** The directory of package `name` as Node resolves it from `from` (a package directory). */
function packageDir(name, from) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dir === root || dirname(dir) === dir) throw new Error(`${name} not found from ${from}`)
  }
}

/** Every package directory `names` need, their dependencies included. */
function closure(names) {
  const seen = new Set()
  const visit = (name, from, optional) => {
    let dir
    try {
      dir = packageDir(name, from)
    } catch (err) {
      if (optional) return
      throw err
    }
    if (seen.has(dir)) return
    seen.add(dir)
    const p = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    for (const dep of Object.keys(p.dependencies ?? {})) visit(dep, dir, false)
    for (const dep of Object.keys(p.optionalDependencies ?? {})) visit(dep, dir, true)
  }
  for (const name of names) visit(name, root, false)
  return [...seen]
}

/** The files under `path` (relative to the root), without nested node_modules of packages. */
function files(path, keepNested) {
  const full = join(root, path)
  if (statSync(full).isFile()) return [path]
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const rel = `${path}/${e.name}`
    if (e.isDirectory()) return e.name === 'node_modules' && !keepNested ? [] : files(rel, keepNested)
    return e.isFile() ? [rel] : []
  })
}

const list = [
  ...OWN.flatMap((p) => files(p, true)),
  ...closure(RUNTIME).flatMap((dir) => files(relative(root, dir), false)),
].filter((f) => !SKIP.some((re) => re.test(f)))

// The archive: a 4-byte header length, the JSON header [[path, mode, size], …], then the bytes.
const entries = list.map((f) => [f, statSync(join(root, f)).mode & 0o777, readFileSync(join(root, f))])
const header = Buffer.from(JSON.stringify(entries.map(([p, m, b]) => [p, m, b.length])))
const length = Buffer.alloc(4)
length.writeUInt32BE(header.length)
const archive = gzipSync(Buffer.concat([length, header, ...entries.map(([, , b]) => b)]), { level: 6 })
const hash = createHash('sha256').update(archive).digest('hex').slice(0, 16)

rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'linkd.pkg'), archive)
writeFileSync(join(out, 'linkd.id'), `${pkg.version}-${hash}`)
copyFileSync(join(root, 'bin/binary-main.cjs'), join(out, 'main.cjs'))
writeFileSync(
  join(out, 'sea-config.json'),
  JSON.stringify({
    main: join(out, 'main.cjs'),
    output: join(out, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    assets: { 'linkd.pkg': join(out, 'linkd.pkg'), 'linkd.id': join(out, 'linkd.id') },
  }),
)
execFileSync(process.execPath, ['--experimental-sea-config', join(out, 'sea-config.json')], {
  stdio: 'ignore',
})
const binary = join(out, 'linkd')
copyFileSync(process.execPath, binary)
chmodSync(binary, 0o755)
execFileSync(
  process.execPath,
  [
    join(root, 'node_modules/postject/dist/cli.js'),
    binary,
    'NODE_SEA_BLOB',
    join(out, 'sea.blob'),
    '--sentinel-fuse',
    'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  ],
  { stdio: 'ignore' },
)
for (const f of ['linkd.pkg', 'linkd.id', 'main.cjs', 'sea-config.json', 'sea.blob']) rmSync(join(out, f))
const mb = (n) => `${(n / 1048576).toFixed(1)} MB`
process.stdout.write(
  `${relative(process.cwd(), binary)}: ${mb(statSync(binary).size)} (${list.length} files, ${mb(archive.length)} packed); ` +
    `link it as linkctl, or run linkd ctl\n`,
)
