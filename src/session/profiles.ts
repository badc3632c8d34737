/** The linkctl profile store (conf), loaded on demand: never imported at start-up. */
import { chmodSync } from 'node:fs'
import { join } from 'node:path'
import { STOP_SIGNALS } from './signals.js'

export interface Profile {
  url: string
  apiKey?: string | undefined
}

interface StoreShape {
  currentProfile?: string
  profiles: Record<string, Profile>
}

export interface ProfileStore {
  readonly path: string
  current(): string | undefined
  setCurrent(name: string): void
  get(name: string): Profile | undefined
  all(): Record<string, Profile>
  save(name: string, profile: Profile): void
}

export const CONFIG_FILE_MODE = 0o600

/**
 * The directory of the profile file (`config.json`) for `env`: `LINKCTL_CONFIG_DIR`, else
 * `$XDG_CONFIG_HOME/linkctl-nodejs`, else undefined: conf's default for the platform
 * (`~/.config/linkctl-nodejs` on Linux, `~/Library/Preferences/linkctl-nodejs` on macOS,
 * `%APPDATA%\\linkctl-nodejs\\Config` on Windows).
 */
export function configDir(env: NodeJS.ProcessEnv): string | undefined {
  if (env.LINKCTL_CONFIG_DIR) return env.LINKCTL_CONFIG_DIR
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'linkctl-nodejs')
  return undefined
}

/**
 * conf. Its atomic file writer (atomically, through when-exit) hooks SIGINT, SIGTERM and SIGHUP
 * and re-raises the signal after its own clean-up, which ends linkctl before a command's async
 * clean-up has run (`webhooks listen` deleting its temporary webhook). linkctl handles those
 * signals itself (signals.ts), so the hooks that loading conf adds are taken off again; when-exit's
 * 'exit' hook (removing its temporary files) stays.
 */
async function loadConf() {
  const before = new Map(STOP_SIGNALS.map((s) => [s, new Set(process.listeners(s))]))
  const { default: Conf } = await import('conf')
  for (const [s, had] of before)
    for (const listener of process.listeners(s)) if (!had.has(listener)) process.off(s, listener)
  return Conf
}

/** Opens the store in configDir(env). */
export async function openStore(env: NodeJS.ProcessEnv): Promise<ProfileStore> {
  const Conf = await loadConf()
  const dir = configDir(env)
  const conf = new Conf<StoreShape>({
    projectName: 'linkctl',
    configFileMode: CONFIG_FILE_MODE,
    defaults: { profiles: {} },
    ...(dir ? { cwd: dir } : {}),
  })
  const secure = () => chmodSync(conf.path, CONFIG_FILE_MODE)
  // Profile names are used as whole-object keys (never dot paths), so any name is safe.
  const profiles = (): Record<string, Profile> => ({ ...conf.get('profiles') })
  return {
    path: conf.path,
    current: () => conf.get('currentProfile'),
    setCurrent(name) {
      conf.set('currentProfile', name)
      secure()
    },
    get: (name) => (Object.hasOwn(profiles(), name) ? profiles()[name] : undefined),
    all: profiles,
    save(name, profile) {
      const next = profiles()
      const clean: Profile = { url: profile.url }
      if (profile.apiKey) clean.apiKey = profile.apiKey
      next[name] = clean
      conf.set('profiles', next)
      secure()
    },
  }
}
