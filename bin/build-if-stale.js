#!/usr/bin/env node
// `npm start`'s build step: `npm run build` only when a build input is newer than the bundle.
// Plain JavaScript next to the entry scripts: it runs before any build exists (daemon/, src/ are TS).
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** What the build reads (the bundle also takes the dependencies, hence the lock file). */
const INPUTS = ['src', 'daemon', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']
/** What it writes; the older of the two is the time of the last complete build. */
const OUTPUTS = ['dist/bundle/daemon/main.js', 'dist/bundle/src/cli/main.js']

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs
  } catch {
    return undefined
  }
}

/** The first input changed after `since`: a file, or a directory whose entries changed (a deletion). */
function changedSince(root, since) {
  const pending = INPUTS.map((p) => join(root, p))
  while (pending.length) {
    const path = pending.pop()
    const t = mtime(path)
    if (t === undefined) continue
    if (t > since) return relative(root, path)
    if (statSync(path).isDirectory()) for (const e of readdirSync(path)) pending.push(join(path, e))
  }
  return undefined
}

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)))
const built = OUTPUTS.map((p) => mtime(join(root, p)))
const since = built.includes(undefined) ? undefined : Math.min(...built)
const why = since === undefined ? 'no build yet' : changedSince(root, since)
if (why) {
  process.stderr.write(`building (${why === 'no build yet' ? why : `${why} changed`})…\n`)
  // Under npm, the same npm that runs this script.
  const npm = process.env.npm_execpath
  const [cmd, args] = npm ? [process.execPath, [npm]] : ['npm', []]
  const r = spawnSync(cmd, [...args, 'run', 'build', '--silent'], {
    cwd: root,
    stdio: 'inherit',
    shell: !npm && process.platform === 'win32',
  })
  process.exit(r.status ?? 1)
}
