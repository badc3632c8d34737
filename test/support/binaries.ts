import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { recordSkip, TOOL_PACKAGES } from './skipped-tools.js'

/**
 * Test dependencies that are system binaries (Debian packages dnsmasq-base, pebble, openssl,
 * nginx-light with libnginx-mod-stream, caddy: TOOL_PACKAGES in skipped-tools.ts).
 * `.ci/run` installs them, so in CI (CI set) a missing binary fails the test run; on a developer
 * machine without them the tests that need them are skipped with the reason.
 */
export function findBinary(name: string): string | undefined {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
    try {
      execFileSync('test', ['-x', `${dir}/${name}`])
      return `${dir}/${name}`
    } catch {
      // not there
    }
  }
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
}

/** The reason to skip when one of `names` is missing (undefined: all present). Throws in CI. */
export function missingBinaries(...names: string[]): string | undefined {
  return missingTools(names.filter((n) => !findBinary(n)))
}

/**
 * What a configuration needs to use nginx's `stream` module: '' when built in, the `load_module`
 * line of the dynamic module (Debian: package libnginx-mod-stream) when installed, undefined
 * when missing.
 */
export function nginxStreamModule(nginx: string): string | undefined {
  // nginx -V prints its configure arguments on stderr.
  const built = spawnSync(nginx, ['-V'], { encoding: 'utf8' }).stderr
  if (/--with-stream(\s|$)/.test(built)) return ''
  const file = `${/--modules-path=(\S+)/.exec(built)?.[1] ?? '/usr/lib/nginx/modules'}/ngx_stream_module.so`
  return /--with-stream=dynamic/.test(built) && existsSync(file) ? `load_module ${file};` : undefined
}

/**
 * The reason to skip for the tools in `missing`, binaries or not (undefined: none missing).
 * Throws in CI.
 */
export function missingTools(missing: string[]): string | undefined {
  if (!missing.length) return undefined
  const packages = [...new Set(missing.map((tool) => TOOL_PACKAGES[tool] ?? tool))]
  const reason = `missing ${missing.join(', ')} (apt-get install ${packages.join(' ')}; .ci/run does it)`
  if (process.env.CI) throw new Error(`CI must provide these test dependencies: ${reason}`)
  process.stderr.write(`skipping: ${reason}\n`)
  recordSkip({ missing })
  return reason
}
