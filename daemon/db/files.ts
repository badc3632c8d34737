import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs'

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

/** Creates `dir` (and missing parents) owner-only. An existing one is left as it is. */
export function createPrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE })
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
