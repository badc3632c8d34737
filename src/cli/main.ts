/**
 * Entry point of linkctl (bin/linkctl.js imports the built copy). `--version` alone is answered
 * before the command tree is loaded: it is what scripts and shells call most often, and Node's
 * per-module load cost would otherwise dominate it.
 */
// `linkctl keys list | head -1`: a closed pipe ends the output quietly, not with a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') process.stderr.write(`error: cannot write the output: ${err.message}\n`)
  process.exit(err.code === 'EPIPE' ? 0 : 1)
})

const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { packageVersion } = await import('../version.js')
  process.stdout.write(`${packageVersion()}\n`)
} else {
  const { runCli } = await import('./run.js')
  const code = await runCli(argv)
  // Every command has finished when runCli resolves (long-running ones such as `webhooks listen`
  // resolve when they stop). Exit now rather than when idle keep-alive sockets of fetch let the
  // event loop drain, ~100 ms later; first let both streams flush (pipes can be asynchronous).
  const flushed = (s: NodeJS.WriteStream) => new Promise((resolve) => s.write('', resolve))
  await Promise.all([flushed(process.stdout), flushed(process.stderr)])
  process.exit(code)
}
