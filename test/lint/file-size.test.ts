/** No source file over 500 lines: a file that grows past it is split by concern. */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../../src/version.js'

const root = packageRoot()
const MAX_LINES = 500
const DIRS = ['daemon', 'src', 'sdk']

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.parentPath.includes('node_modules'))
    .map((e) => relative(root, join(e.parentPath, e.name)))
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0)

describe('file size', () => {
  it(`keeps every .ts and .tsx file under ${DIRS.join('/, ')}/ within ${MAX_LINES} lines`, () => {
    const over = DIRS.flatMap(sourceFiles)
      .map((file) => ({ file, lines: lineCount(readFileSync(join(root, file), 'utf8')) }))
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines`)
    expect(over).toEqual([])
  })
})
