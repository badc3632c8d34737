/**
 * The systemd unit of docs/deployment.md, read from the page, is checked by `systemd-analyze
 * verify` (Debian's systemd package): no unknown key, no value systemd would ignore. Its
 * ExecStart points at this checkout's linkd (verify wants an executable there). Another unit
 * with a misspelt key shows the check would catch one.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findBinary, missingBinaries } from '../support/binaries.js'
import { fences, substitute } from '../support/deployment-docs.js'
import { root } from '../support/processes.js'

const skip = missingBinaries('systemd-analyze')
const work = mkdtempSync(join(tmpdir(), 'linkd-systemd-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** What `systemd-analyze verify` says of `unit` (written as linkd.service): its complaints. */
function verify(unit: string): { status: number | null; complaints: string } {
  const file = join(work, 'linkd.service')
  writeFileSync(file, unit)
  const r = spawnSync(findBinary('systemd-analyze')!, ['verify', '--man=no', file], { encoding: 'utf8' })
  return { status: r.status, complaints: `${r.stdout}${r.stderr}`.trim() }
}

describe.skipIf(skip)('the systemd unit of docs/deployment.md', () => {
  const [unit] = fences('ini').filter((f) => f.includes('[Service]'))
  const local = substitute(unit ?? '', [[/\/usr\/local\/bin\/linkd/, join(root, 'bin/linkd.js')]])

  it('is accepted by systemd-analyze verify without a warning', () => {
    expect(unit, 'docs/deployment.md has an ```ini block with [Service]').toBeDefined()
    expect(verify(local)).toEqual({ status: 0, complaints: '' })
  })

  it('would be caught with a misspelt key or a wrong value', () => {
    expect(verify(local.replace('RestartSec=', 'RestartSecs=')).complaints).toMatch(
      /Unknown key 'RestartSecs'/,
    )
    expect(verify(local.replace('ProtectSystem=strict', 'ProtectSystem=very')).complaints).toMatch(
      /protect system value/,
    )
  })
})
