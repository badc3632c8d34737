/**
 * `npm start`'s build step (bin/build-if-stale.js) on a small project of its own, whose build
 * writes the two bundle entry points and counts its runs: it builds when there is no build or an
 * input changed (a file touched, a file deleted), and only then.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { root } from '../support/processes.js'

const dir = join(tmpdir(), `linkd-build-if-stale-${process.pid}`)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const write = (path: string, text = '') => {
  mkdirSync(dirname(join(dir, path)), { recursive: true })
  writeFileSync(join(dir, path), text)
}
const OUTPUTS = ['dist/bundle/daemon/main.js', 'dist/bundle/src/cli/main.js']
const builds = () => readFileSync(join(dir, 'builds.log'), 'utf8').split('\n').filter(Boolean).length
/** Everything dated a minute back: what changes next is newer than the build, whatever the clock's grain. */
const ageAll = (paths: string[]) => {
  const past = new Date(Date.now() - 60_000)
  for (const p of paths) utimesSync(join(dir, p), past, past)
}
const step = () =>
  spawnSync(process.execPath, [join(root, 'bin/build-if-stale.js'), dir], {
    encoding: 'utf8',
    timeout: 60_000,
  })

describe('npm start builds only when the sources changed', () => {
  it('npm start runs the build step, then linkd', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(pkg.scripts.start).toBe('node bin/build-if-stale.js && node bin/linkd.js')
  })

  it('a fresh build, skipped while nothing changed, run again when a source is touched or deleted', () => {
    write(
      'package.json',
      JSON.stringify({ name: 'build-if-stale-fixture', private: true, scripts: { build: 'node build.js' } }),
    )
    write(
      'build.js',
      [
        "const fs = require('node:fs')",
        "if (fs.existsSync('FAIL')) process.exit(3)",
        ...OUTPUTS.map(
          (p) => `fs.mkdirSync('${dirname(p)}', { recursive: true }); fs.writeFileSync('${p}', '')`,
        ),
        "fs.appendFileSync('builds.log', 'built\\n')",
      ].join('\n'),
    )
    write('builds.log')
    write('src/cli/main.ts', 'export {}')
    write('daemon/main.ts', 'export {}')
    write('daemon/old.ts', 'export {}')
    write('tsconfig.json', '{}')
    write('test/some.test.ts', '')

    const first = step()
    expect(first.status, first.stderr).toBe(0)
    expect(first.stderr).toContain('building (no build yet)')
    expect(builds()).toBe(1)
    const inputs = ['src/cli/main.ts', 'src/cli', 'src', 'daemon/main.ts', 'daemon/old.ts', 'daemon']
    ageAll([...inputs, 'tsconfig.json', 'package.json'])

    // Nothing changed (a test file is not an input): no build.
    write('test/some.test.ts', 'changed')
    const again = step()
    expect(again.status).toBe(0)
    expect(again.stderr).toBe('')
    expect(builds()).toBe(1)

    write('src/cli/main.ts', 'export const changed = 1')
    const touched = step()
    expect(touched.status).toBe(0)
    expect(touched.stderr).toContain('building (src/cli/main.ts changed)')
    expect(builds()).toBe(2)
    ageAll(inputs)
    expect(step().stderr).toBe('')

    rmSync(join(dir, 'daemon/old.ts'))
    expect(step().stderr).toContain('building (daemon changed)')
    expect(builds()).toBe(3)
    ageAll(inputs.filter((p) => p !== 'daemon/old.ts'))

    // A failing build fails the start with its exit code, and the next start tries again.
    write('FAIL')
    write('tsconfig.json', '{ "compilerOptions": {} }')
    expect(step().status).toBe(3)
    rmSync(join(dir, 'FAIL'))
    expect(step().stderr).toContain('building (tsconfig.json changed)')
    expect(builds()).toBe(4)
  })
})
