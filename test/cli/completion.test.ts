import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { COMPLETION_FILES, completionScript, SHELLS } from '../../src/cli/completion/index.js'
import { packageRoot } from '../../src/version.js'
import { cli, tempDir } from '../support/cli.js'
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

  it.runIf(hasShell('bash'))('bash completes commands, options and option values', () => {
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

  it.runIf(hasShell('zsh'))('the zsh script parses', () => {
    const tmp = tempDir()
    writeFileSync(join(tmp.dir, '_linkctl'), completionScript('zsh', buildProgram()))
    expect(() => execFileSync('zsh', ['-n', join(tmp.dir, '_linkctl')])).not.toThrow()
    tmp.remove()
  })

  it.runIf(hasShell('fish'))('fish completes subcommands and choices', () => {
    const tmp = tempDir()
    const script = join(tmp.dir, 'linkctl.fish')
    writeFileSync(script, completionScript('fish', buildProgram()))
    const out = execFileSync(
      'fish',
      ['-c', `source ${script}; complete -C 'linkctl keys create --time-period '`],
      {
        encoding: 'utf8',
      },
    )
    expect(out.split('\n').map((l) => l.split('\t')[0])).toEqual(['day', 'hour', 'minute', ''])
    tmp.remove()
  })
})
