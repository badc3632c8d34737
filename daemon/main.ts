import { Command, Option } from 'commander'
import { createServer } from 'node:net'
import {
  checkSettingFiles,
  ConfigError,
  loadConfig,
  redactDatabaseUrl,
  withListenPort,
  type Config,
} from './config.js'
import { SETTINGS } from './settings.js'
import { NamedDatabaseProblem, postgresProblem } from './socket-errors.js'
import { packageVersion } from '../src/version.js'
import { prettyDestination, usePretty } from './log-format.js'
import { PRESET_NAMES } from '../src/contract/scopes.js'

/**
 * The linkd process. `linkd` serves (config → db → migrate → servers → jobs → signals → graceful
 * close); the subcommands are offline admin tasks on the database.
 */
const out = (text: string) => process.stdout.write(text)

/** The setting a database that cannot be reached is named by (migrate-data names its flag itself). */
let databaseSetting = 'LINKD_DATABASE_URL / --database-url'

function configFrom(cmd: Command): Config {
  const opts = cmd.optsWithGlobals<Record<string, unknown>>()
  const flags: Record<string, unknown> = {}
  for (const s of SETTINGS) if (opts[s.key] !== undefined) flags[s.key] = opts[s.key]
  return loadConfig({ flags, file: typeof opts.config === 'string' ? opts.config : undefined })
}

/**
 * A free port on the host, for LINKD_PORT=0 (chosen before the app is built so URLs are right);
 * with a port, that one, checked before anything is created: a port in use fails before a first
 * start makes (and prints) the owner key.
 */
function freePort(host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(port, host, () => {
      const addr = srv.address()
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0))
    })
  })
}

/** Why a listener could not open, naming the setting to change (else the error as it is). */
function listenError(err: unknown, setting: string): unknown {
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number }
  const where = `${e.address?.includes(':') ? `[${e.address}]` : String(e.address)}:${String(e.port)}`
  if (e.code === 'EADDRINUSE')
    return new Error(`${setting}: ${where} is already in use (another linkd, or another program)`)
  if (e.code === 'EACCES')
    return new Error(
      `${setting}: ${where} needs privileges (ports below 1024: CAP_NET_BIND_SERVICE, docs/deployment.md)`,
    )
  if (e.code === 'EADDRNOTAVAIL')
    return new Error(`LINKD_HOST / --host: ${String(e.address)} is not an address of this machine`)
  return err
}

async function serve(requested: Config): Promise<void> {
  const config = requested.port === 0 ? withListenPort(requested, await freePort(requested.host)) : requested
  checkSettingFiles(config)
  for (const [port, setting] of [
    [config.port, 'LINKD_PORT / --port'],
    [config.httpsPort, 'LINKD_HTTPS_PORT / --https-port'],
  ] as const)
    if (port)
      await freePort(config.host, port).catch((err: unknown) => {
        throw listenError(err, setting)
      })
  const [{ bootstrap, ownerKeyBanner }, { buildApp }] = await Promise.all([
    import('./admin/context.js'),
    import('./app.js'),
  ])
  const started = performance.now()
  const b = await bootstrap(config)
  // At once: whatever fails after this (a city database that does not open…) must not leave the
  // owner key of a first start made but never shown.
  if (b.ownerKey) out(ownerKeyBanner('default', b.ownerKey, config.publicUrl))
  const app = await buildApp({
    config,
    db: b.db,
    masterKey: b.masterKey,
    logger: {
      level: config.logLevel,
      ...(usePretty(config.logFormat, process.stdout.isTTY === true)
        ? {
            stream: prettyDestination(process.stdout, process.stdout.isTTY === true && !process.env.NO_COLOR),
          }
        : {}),
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.key', '*.secret', '*.apiKey'],
        censor: '[redacted]',
      },
    },
  })
  if (b.generatedMasterKey)
    app.log.warn(
      { file: `${config.dataDir}/secret.key` },
      'generated a master key for secrets at rest; back it up',
    )
  if (b.tightened.length)
    app.log.warn(
      { paths: b.tightened },
      'made data files owner-only (directory 0700, files 0600); they were readable by others',
    )
  // WAL checkpoints on a worker thread of their own, not inside a request's commit.
  const checkpointer =
    b.db.dialect !== 'sqlite' || b.db.sqlite.memory
      ? undefined
      : (await import('./db/checkpointer.js')).startCheckpointer(b.db.sqlite, {
          onError: (err) =>
            app.log.warn({ err }, 'background WAL checkpoints stopped; SQLite checkpoints on commit again'),
        })
  if (checkpointer) app.linkd.metrics.watchCheckpointer(() => checkpointer)

  let https: { port: number; close(): Promise<void> } | undefined
  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    const force = setTimeout(() => {
      app.log.error({ timeoutMs: config.shutdownTimeoutMs }, 'graceful shutdown timed out; exiting')
      process.exit(1)
    }, config.shutdownTimeoutMs)
    force.unref()
    // A request in flight keeps its keep-alive connection open after its answer, which would hold
    // the close until the client lets go: each such connection is closed once it is idle.
    setInterval(() => app.server.closeIdleConnections(), 100).unref()
    try {
      await https?.close()
      await app.close() // stops accepting, waits for in-flight requests, stops jobs, flushes buffers
      await checkpointer?.stop()
      await b.db.close()
      process.exit(0)
    } catch (err) {
      app.log.error({ err }, 'shutdown failed')
      process.exit(1)
    }
  }
  process.once('SIGINT', () => void shutdown('SIGINT'))
  process.once('SIGTERM', () => void shutdown('SIGTERM'))

  const address = await app.listen({ host: config.host, port: config.port }).catch((err: unknown) => {
    throw listenError(err, 'LINKD_PORT / --port')
  })
  if (config.httpsPort !== undefined) {
    const { listenHttps } = await import('./modules/domains/index.js')
    https = await listenHttps(app, app.linkd.services.directory, {
      host: config.host,
      port: config.httpsPort,
    }).catch((err: unknown) => {
      throw listenError(err, 'LINKD_HTTPS_PORT / --https-port')
    })
    out(`linkd HTTPS for custom domains on port ${https.port}\n`)
  }
  app.linkd.startBackground()
  app.log.info(
    { address, version: packageVersion(), startupMs: Math.round(performance.now() - started) },
    'linkd ready',
  )
  out(
    `linkd ${packageVersion()} listening on ${address} (database ${redactDatabaseUrl(config.databaseUrl)})\n`,
  )
}

function program(): Command {
  const p = new Command('linkd')
    .description('linkd: self-hosted link management and game analytics daemon')
    .version(packageVersion(), '-v, --version')
    .option('--config <file>', 'JSON config file (also LINKD_CONFIG)')
    .showHelpAfterError()
    // Commander leaves descriptions unwrapped when fewer than 40 columns remain beside the
    // longest setting (`--webhook-allow-private-networks <value>`); 30 still reads well.
    .configureHelp({ minWidthToWrap: 30 })
  for (const s of SETTINGS) p.addOption(new Option(`${s.flag} <value>`, `${s.doc} [${s.env}]`))
  // The daemon takes no operands: one is a mistyped subcommand (`linkd migrat`), said as such
  // rather than as commander's "too many arguments".
  p.allowExcessArguments().action(async (_o, cmd: Command) => {
    const [word] = cmd.args
    if (word !== undefined) {
      const names = cmd.commands.map((c) => c.name())
      const near = names.filter((n) => n.startsWith(word.slice(0, 3))).sort((a, b) => a.length - b.length)[0]
      cmd.error(
        `error: unknown command '${word}'${near ? ` (did you mean ${near}?)` : `; the commands: ${names.join(', ')}`}`,
      )
    }
    await serve(configFrom(cmd))
  })

  const load = () => import('./admin/commands.js')
  p.command('init')
    .description(
      'create the data directory, master key, schema and the default organization (prints its owner key once)',
    )
    .action(async (_o, cmd: Command) => (await load()).initCommand(configFrom(cmd), out))
  p.command('migrate')
    .description('apply pending database migrations')
    .action(async (_o, cmd: Command) => (await load()).migrateCommand(configFrom(cmd), out))
  p.command('backup')
    .argument('<file>', 'target file (must not exist)')
    .description(
      'online backup of the SQLite database, safe while linkd runs (on PostgreSQL: prints the pg_dump command to use)',
    )
    .action(async (file: string, _o, cmd: Command) =>
      (await load()).backupCommand(configFrom(cmd), file, out),
    )
  p.command('migrate-data')
    .requiredOption('--from <url>', 'source database: sqlite:PATH (or postgres://…)')
    .requiredOption('--to <url>', 'empty target database: postgres://user@host:port/db (or sqlite:PATH)')
    .description(
      'copy an installation into an empty database (stop linkd first): every table, row counts verified; keys and secrets keep working with the same master key',
    )
    .action(async (o: { from: string; to: string }) => {
      databaseSetting = '--from / --to'
      await (await import('./admin/migrate-data.js')).migrateDataCommand(o, out)
    })
  const org = p.command('org').description('manage organizations')
  org
    .command('create')
    .argument('<name>', 'organization name (lowercase letters, digits, hyphens)')
    .option('--plan <plan>', 'free|starter|professional|enterprise (default LINKD_DEFAULT_PLAN)')
    .description('create an organization and print its owner key once')
    .action(async (name: string, o: { plan?: string }, cmd: Command) =>
      (await load()).orgCreateCommand(configFrom(cmd), name, o.plan, out),
    )
  org
    .command('set-plan')
    .argument('<org>', 'organization id or name')
    .argument('<plan>', 'free|starter|professional|enterprise')
    .description("change an organization's plan")
    .action(async (name: string, plan: string, _o, cmd: Command) =>
      (await load()).orgSetPlanCommand(configFrom(cmd), name, plan, out),
    )
  const keys = p.command('keys').description('manage API keys offline (recovery)')
  keys
    .command('create')
    .requiredOption('--org <org>', 'organization id or name')
    .option('--name <name>', 'key name', 'recovery')
    .option('--preset <preset>', `${PRESET_NAMES.join('|')}`, 'full')
    .description(
      'create an API key on the database directly (also at the plan limit) and print it once: the way back in when no key with keys:write is left',
    )
    .action(async (o: { org: string; name: string; preset: string }, cmd: Command) =>
      (await load()).keysCreateCommand(configFrom(cmd), o, out),
    )
  const members = p.command('members').description('team members of an organization (offline)')
  members
    .command('list')
    .requiredOption('--org <org>', 'organization id or name')
    .option('--json', 'print JSON')
    .description('list the members of an organization: id, role, name, e-mail, joined (tab-separated)')
    .action(async (o: { org: string; json?: boolean }, cmd: Command) =>
      (await load()).membersListCommand(configFrom(cmd), o, out),
    )
  return p
}

// Whatever linkd creates holds secrets or their hashes (database, -wal/-shm, backups, master key,
// ACME account): owner-only by default, including the -wal/-shm SQLite creates long after start.
// The explicit modes in daemon/db/files.ts keep that where this umask does not apply (linkd
// embedded, tests) and tighten files an older version left readable.
if (process.platform !== 'win32') process.umask(0o077)

program()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    const postgres = postgresProblem(err)
    const message =
      err instanceof ConfigError || err instanceof NamedDatabaseProblem
        ? err.message
        : postgres
          ? `${databaseSetting}: ${postgres}`
          : err instanceof Error
            ? err.message
            : String(err)
    process.stderr.write(`linkd: ${message}\n`)
    process.exit(err instanceof ConfigError ? 2 : 1)
  })
