/**
 * Installing linkctl and linkd from a packed tarball. A real `npm pack` of the
 * checkout (built by `pretest`); the tarball must hold everything both programs need to run and
 * nothing else. It is then installed into a temporary prefix with the layout `npm install -g
 * --prefix` makes (`lib/node_modules/linkd`, `bin/<name>` links from package.json's `bin`), with
 * the checkout's node_modules linked in as its dependencies: a real `npm install` of the tarball
 * would fetch every dependency from the registry and compile better-sqlite3 from source for
 * minutes (no prebuilt binary for this Node), which a test must not depend on. The installed
 * binaries run from the prefix: migrations and the bundle come from the tarball, not the checkout.
 */
import { execFile, execFileSync } from 'node:child_process'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanEnv, OWNER_KEY_RE, root } from '../support/processes.js'

const work = mkdtempSync(join(tmpdir(), 'linkd-install-e2e-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

interface Packed {
  filename: string
  files: { path: string }[]
}

/** Runs an installed binary (its shebang: `#!/usr/bin/env node`), outside the checkout. */
function run(bin: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(bin, args, { cwd: work, env: cleanEnv(env), timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    )
  })
}

describe('npm pack and an install into a prefix', () => {
  let packed: Packed
  const prefix = join(work, 'prefix')
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
    .version

  beforeAll(() => {
    // --ignore-scripts: `prepack` would build again; `npm test` has just built dist/.
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    packed = (JSON.parse(out) as Packed[])[0]!
  })

  it('the tarball holds the bins, the bundle, the migrations and the completions; no sources or tests', () => {
    const paths = packed.files.map((f) => f.path)
    // Both engines' migrations: the shared files and PostgreSQL's own texts in postgres/.
    const migrations = readdirSync(join(root, 'daemon/db/migrations'), {
      recursive: true,
      withFileTypes: true,
    })
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)))
    expect(migrations).toContain('daemon/db/migrations/postgres/0013_fraud_events.sql')
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'bin/linkd.js',
        'bin/linkctl.js',
        'dist/bundle/daemon/main.js',
        'dist/bundle/daemon/render-worker.js',
        'dist/bundle/daemon/read-worker.js',
        'dist/bundle/src/cli/main.js',
        'dist/sdk/web/linkd-sdk.js',
        'dist/sdk/web/types/index.d.ts',
        'completions/linkctl.bash',
        ...migrations,
      ]),
    )
    const stray = paths.filter(
      (p) =>
        /^(src|test|docs|sdk)\//.test(p) ||
        (p.endsWith('.ts') && !p.startsWith('dist/sdk/web/types/')) ||
        /^dist\/(?!bundle\/|sdk\/web\/linkd-sdk\.js$|sdk\/web\/types\/)/.test(p),
    )
    expect(stray).toEqual([])
  })

  it('the README documents the install and never suggests npx linkctl', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    expect(readme).toContain('npm install -g ./linkd-')
    expect(readme).toContain('npm link')
    expect(readme).not.toMatch(/npx linkctl [a-z-]/)
  })

  it('installed: linkctl --version and linkd --help run from the prefix; linkd init applies the packed migrations', async () => {
    const pkgDir = join(prefix, 'lib/node_modules/linkd')
    mkdirSync(join(prefix, 'lib/node_modules'), { recursive: true })
    mkdirSync(join(prefix, 'bin'), { recursive: true })
    execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work])
    renameSync(join(work, 'package'), pkgDir)
    symlinkSync(join(root, 'node_modules'), join(pkgDir, 'node_modules'))
    const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
      bin: Record<string, string>
    }
    expect(Object.keys(manifest.bin).sort()).toEqual(['linkctl', 'linkd'])
    for (const [name, target] of Object.entries(manifest.bin)) {
      chmodSync(join(pkgDir, target), 0o755)
      symlinkSync(relative(join(prefix, 'bin'), join(pkgDir, target)), join(prefix, 'bin', name))
    }

    const linkctl = await run(join(prefix, 'bin/linkctl'), ['--version'])
    expect(linkctl).toMatchObject({ code: 0, stdout: `${version}\n` })
    const help = await run(join(prefix, 'bin/linkctl'), ['keys', '--help'])
    expect(help.stdout).toMatch(/revoke/)
    const linkd = await run(join(prefix, 'bin/linkd'), ['--help'])
    expect(linkd.code, linkd.stderr).toBe(0)
    expect(linkd.stdout).toMatch(/^Usage: linkd/)
    const init = await run(join(prefix, 'bin/linkd'), ['init'], { LINKD_DATA_DIR: join(work, 'data') })
    expect(init.code, init.stderr).toBe(0)
    expect(init.stdout).toMatch(OWNER_KEY_RE)
    const migrate = await run(join(prefix, 'bin/linkd'), ['migrate'], { LINKD_DATA_DIR: join(work, 'data') })
    expect(migrate.code, migrate.stderr).toBe(0)

    // A game's project importing the web SDK by the package's `linkd/sdk` entry.
    const game = join(work, 'game')
    mkdirSync(join(game, 'node_modules'), { recursive: true })
    symlinkSync(pkgDir, join(game, 'node_modules/linkd'))
    writeFileSync(
      join(game, 'main.mjs'),
      "import { createClient } from 'linkd/sdk'\nconsole.log(typeof createClient)\n",
    )
    const sdk = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['main.mjs'], { cwd: game }, (err, stdout) =>
        err ? reject(err) : resolve(stdout),
      ),
    )
    expect(sdk).toBe('function\n')
  })
})
