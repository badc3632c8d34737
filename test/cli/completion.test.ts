import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { COMPLETION_FILES, completionScript, SHELLS } from '../../src/cli/completion/index.js'
import { packageRoot } from '../../src/version.js'
import { cli, tempDir } from '../support/cli.js'
import { missingBinaries } from '../support/binaries.js'
import { createTestApp } from '../support/app.js'
import { API_PATHS_FILE, apiPathsOf } from '../support/api-paths.js'
import { API_PATHS } from '../../src/cli/completion/api-paths.js'

const hasShell = (sh: string) => {
  try {
    execFileSync(sh, ['-c', 'exit 0'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe('shell completions', () => {
  it.each(SHELLS)('completions/%s is what the current command tree generates', (shell) => {
    const file = join(packageRoot(), 'completions', COMPLETION_FILES[shell])
    const expected = completionScript(shell, buildProgram())
    // If this fails, regenerate with: npm run completions
    expect(readFileSync(file, 'utf8'), `${file} is stale: run npm run completions`).toBe(expected)
  })

  it('scripts follow the tree: a new command and its options appear without other changes', () => {
    const program = buildProgram()
    program.command('frobnicate').alias('frob').description('test only').option('--level <n>', 'how much')
    for (const shell of SHELLS) {
      const script = completionScript(shell, program)
      expect(script).toContain('frobnicate')
      expect(script).toContain('level')
    }
    expect(completionScript('bash', program)).toContain(`'|frobnicate'|'|frob') echo 'frobnicate' ;;`)
  })

  it('`completion <shell>` prints the script and `completion all --write` writes the three files', async () => {
    const r = await cli(['completion', 'fish'])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(completionScript('fish', buildProgram()))
    const tmp = tempDir()
    const w = await cli(['completion', 'all', '--write', '--dir', tmp.dir])
    expect(w.code).toBe(0)
    for (const shell of SHELLS) {
      expect(readFileSync(join(tmp.dir, COMPLETION_FILES[shell]), 'utf8')).toBe(
        completionScript(shell, buildProgram()),
      )
    }
    tmp.remove()
    expect((await cli(['completion', 'all'])).code).toBe(2)
  })

  it.runIf(hasShell('bash'))('bash completes commands, options, option values, api paths and files', () => {
    const tmp = tempDir()
    const script = join(tmp.dir, 'linkctl.bash')
    writeFileSync(script, completionScript('bash', buildProgram()))
    const complete = (line: string) =>
      execFileSync(
        'bash',
        [
          '-c',
          `source "$1"; read -ra COMP_WORDS <<< "$2"; [[ "$2" == *' ' ]] && COMP_WORDS+=('');` +
            ' COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _linkctl; echo "${COMPREPLY[*]}"',
          'bash',
          script,
          line,
        ],
        { encoding: 'utf8' },
      ).trim()
    expect(complete('linkctl ')).toBe(
      'login logout profile status whoami keys team links smart-links sl qr domains webhooks safety games events analytics export exports fraud skan gdpr audit api tui dashboard completion help',
    )
    expect(complete('linkctl keys re')).toBe('regenerate revoke')
    expect(complete('linkctl keys create --preset ')).toBe('read-only full analytics-only')
    expect(complete('linkctl --url http://x keys ls --status ')).toBe('active inactive revoked expired')
    expect(complete('linkctl keys list --st')).toBe('--status')
    expect(complete('linkctl links list --sort ')).toBe('createdAt clicks')
    expect(complete('linkctl links update x --redirect-type ')).toBe('301 302 307 308')
    expect(complete('linkctl links e')).toBe('export')
    expect(complete('linkctl team r')).toBe('revoke-invite role remove rm')
    expect(complete('linkctl team invite x --role ')).toBe('owner admin member viewer')
    expect(complete('linkctl team invitations --status ')).toBe('pending accepted revoked expired')
    // `api`: the methods, then the paths linkd serves for that method (its OpenAPI document's).
    expect(complete('linkctl api ')).toBe('GET POST PUT PATCH DELETE HEAD OPTIONS')
    expect(complete('linkctl api P')).toBe('POST PUT PATCH')
    expect(complete('linkctl api GET /api/keys')).toBe('/api/keys /api/keys/{id} /api/keys/{id}/activity')
    expect(complete('linkctl api get /api/keys/{id}/a')).toBe('/api/keys/{id}/activity')
    expect(complete('linkctl api POST /api/keys/{id}/r')).toBe(
      '/api/keys/{id}/regenerate /api/keys/{id}/revoke',
    )
    expect(complete('linkctl --url http://x api -F a=1 DELETE /api/use/l')).toBe('/api/use/links/{id}')
    expect(complete('linkctl api HEAD /health/')).toBe('/health/live /health/ready')
    expect(complete('linkctl api GET /api/use/links ')).toBe('')
    // A file argument or option takes file names; another argument does not.
    const files = someFiles(tmp.dir)
    expect(complete(`linkctl events send ${files}/`)).toBe(`${files}/links.csv ${files}/sub`)
    expect(complete(`linkctl links import --failed-out ${files}/l`)).toBe(`${files}/links.csv`)
    expect(complete(`linkctl links list ${files}/`)).toBe('')
    tmp.remove()
  })

  it("the api command's paths are those of linkd's OpenAPI document, for each method", async () => {
    const t = await createTestApp()
    try {
      const res = await t.call('GET', '/api/docs/openapi.json', { key: null })
      // If this fails, regenerate with: npm run completions
      expect(API_PATHS, `${API_PATHS_FILE} is stale: run npm run completions`).toEqual(apiPathsOf(res.json()))
    } finally {
      await t.close()
    }
  })

  /** A directory holding links.csv and sub/, for the file arguments (`links import [file]`). */
  const someFiles = (dir: string) => {
    const files = join(dir, 'files')
    mkdirSync(join(files, 'sub'), { recursive: true })
    writeFileSync(join(files, 'links.csv'), '')
    return files
  }

  // What a user meets in zsh and fish: each line as typed, and the words offered on Tab.
  const sorted = (words: string) => words.split(/\s+/).filter(Boolean).sort()
  const COMMON: [line: string, words: string][] = [
    // nouns, verbs, options of a verb
    ['linkctl e', 'events export exports'],
    ['linkctl links cr', 'create'],
    ['linkctl keys re', 'regenerate revoke'],
    ['linkctl keys list --s', '--search --status'],
    // an option's choices, after a global option and its value, at an alias
    ['linkctl webhooks create --retry-policy ', 'exponential immediate linear none'],
    ['linkctl --url http://x keys ls --status ', 'active expired inactive revoked'],
    ['linkctl links import --from ', 'bitly kutt linkd shlink yourls'],
    // `api`: the methods, then the paths linkd serves for that method, then nothing
    ['linkctl api ', 'DELETE GET HEAD OPTIONS PATCH POST PUT'],
    ['linkctl api GET /api/keys', '/api/keys /api/keys/{id} /api/keys/{id}/activity'],
    ['linkctl api get /api/keys/{id}/a', '/api/keys/{id}/activity'],
    ['linkctl api POST /api/keys/{id}/r', '/api/keys/{id}/regenerate /api/keys/{id}/revoke'],
    ['linkctl --url http://x api -F a=1 DELETE /api/use/l', '/api/use/links/{id}'],
    ['linkctl api HEAD /health/', '/health/live /health/ready'],
    ['linkctl api GET /api/use/links ', ''],
  ]

  it.skipIf(missingBinaries('zsh'))(
    'zsh completes commands, options, choices, api paths and files on Tab',
    () => {
      const tmp = tempDir()
      // Installed as the script's header says: saved as _linkctl in a directory of $fpath, then compinit.
      writeFileSync(join(tmp.dir, '_linkctl'), completionScript('zsh', buildProgram()))
      const files = someFiles(tmp.dir)
      const cases: [string, string][] = [
        ...COMMON,
        ['linkctl s', 'safety skan sl smart-links status'],
        [`linkctl links import ${files}/`, 'links.csv sub'],
        [`linkctl links import --failed-out ${files}/l`, 'links.csv'],
        [`linkctl links list ${files}/`, ''],
      ]
      const out = execFileSync(
        'zsh',
        ['-f', join(packageRoot(), 'test/support/zsh-complete.zsh'), tmp.dir, ...cases.map(([line]) => line)],
        { encoding: 'utf8', timeout: 50_000 },
      )
      const offered = out.split('\n').slice(0, cases.length)
      expect(cases.map(([line], i) => [line, sorted(offered[i] ?? '')])).toEqual(
        cases.map(([line, words]) => [line, sorted(words)]),
      )
      tmp.remove()
    },
  )

  it.skipIf(missingBinaries('fish'))('fish completes commands, options, choices, api paths and files', () => {
    const tmp = tempDir()
    const script = join(tmp.dir, 'linkctl.fish')
    writeFileSync(script, completionScript('fish', buildProgram()))
    const files = someFiles(tmp.dir)
    const cases: [string, string][] = [
      ...COMMON,
      ['linkctl s', 'safety skan smart-links status'],
      ['linkctl keys create --time-period ', 'day hour minute'],
      [`linkctl links import ${files}/`, `${files}/links.csv ${files}/sub/`],
      [`linkctl links import --failed-out ${files}/l`, `${files}/links.csv`],
      [`linkctl links list ${files}/`, ''],
    ]
    // One line per case: its candidates (fish prints each with its description after a tab).
    const out = execFileSync(
      'fish',
      [
        '--no-config',
        '-c',
        'source $argv[1]; for l in $argv[2..-1]; set -l w (complete -C $l | string replace -r "\t.*" ""); echo "$w"; end',
        script,
        ...cases.map(([line]) => line),
      ],
      { encoding: 'utf8' },
    )
    const offered = out.split('\n').slice(0, cases.length)
    expect(cases.map(([line], i) => [line, sorted(offered[i] ?? '')])).toEqual(
      cases.map(([line, words]) => [line, sorted(words)]),
    )
    tmp.remove()
  })
})
