import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs'
import { userInfo } from 'node:os'
import { dirname, resolve } from 'node:path'

/**
 * Owner-only modes for what holds the data: the data directory 0700, the database, its -wal and
 * -shm files and backups 0600. linkd also sets its umask to 077 (daemon/main.ts); these explicit
 * modes keep the guarantee where that does not apply (linkd embedded, tests) and for files that
 * already exist with looser modes.
 */
export const DIR_MODE = 0o700
export const FILE_MODE = 0o600

const posix = process.platform !== 'win32'

/** Sets `mode` on an existing path when group or others have any access; true when it did. */
function tighten(path: string, mode: number): boolean {
  if (!posix) return false
  let current: number
  try {
    current = statSync(path).mode & 0o777
  } catch {
    return false // not there
  }
  if ((current & 0o077) === 0) return false
  chmodSync(path, mode)
  return true
}

/**
 * Creates `dir` (and missing parents) owner-only. An existing one is left as it is. One level at a
 * time: Node's recursive mkdir loops forever where mkdir fails with ENOENT under a parent that
 * exists (/proc); here that is a `NothingCreated` error.
 */
export function createPrivateDir(dir: string): void {
  for (const p of missingDirs(dir)) {
    try {
      mkdirSync(p, { mode: DIR_MODE })
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code === 'EEXIST' && statSync(p).isDirectory()) continue // made meanwhile
      if (code === 'ENOENT') throw new NothingCreated(dirname(p))
      throw err
    }
  }
}

/** The directories of `dir` (itself included) that do not exist yet, outermost first. */
export function missingDirs(dir: string): string[] {
  const missing: string[] = []
  for (let p = resolve(dir); !existsSync(p) && dirname(p) !== p; p = dirname(p)) missing.unshift(p)
  return missing
}

/** A directory that exists but in which nothing can be created (a virtual file system: /proc, /sys). */
export class NothingCreated extends Error {
  readonly code = 'ENOENT'
  constructor(dir: string) {
    super(`nothing can be created in ${dir}`)
  }
}

/** Why `path` cannot be created or written, in words, from the error of the attempt. */
export function pathProblem(path: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code
  if (err instanceof NothingCreated) return err.message
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    let p = path
    while (!existsSync(p) && dirname(p) !== p) p = dirname(p)
    return `${p} is not a directory`
  }
  if (code === 'ENOENT')
    return existsSync(dirname(path))
      ? new NothingCreated(dirname(path)).message
      : `${dirname(path)} does not exist`
  if (code === 'EACCES' || code === 'EPERM') return `permission denied for user ${userInfo().username}`
  if (code === 'EROFS') return 'read-only file system'
  if (code === 'ENOSPC') return 'no space left on the device'
  return (err as Error).message
}

/** The data directory: created 0700, or tightened to 0700. Returns the paths tightened. */
export function securePrivateDir(dir: string): string[] {
  createPrivateDir(dir)
  return tighten(dir, DIR_MODE) ? [dir] : []
}

/** Tightens an existing file to 0600 when others may read it. Returns the paths tightened. */
export function securePrivateFile(file: string): string[] {
  return tighten(file, FILE_MODE) ? [file] : []
}

/** Creates `file` empty with mode 0600 unless it exists; false when it already existed. */
export function createPrivateFile(file: string): boolean {
  try {
    closeSync(openSync(file, 'wx', FILE_MODE))
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw err
  }
}

/**
 * Before SQLite opens the database at `path`: creates the file 0600 when it is new (an empty file
 * is an empty database) and tightens an existing one and any -wal/-shm left over. SQLite creates
 * the -wal and -shm files later with the mode of the database file, so they follow it; creating
 * them ahead would not be enough, as SQLite deletes them on the last close. Returns the paths
 * tightened.
 */
export function secureDatabaseFiles(path: string): string[] {
  if (!posix) return []
  createPrivateFile(path)
  return [path, `${path}-wal`, `${path}-shm`].filter((f) => tighten(f, FILE_MODE))
}
