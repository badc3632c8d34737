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
  process.exitCode = await runCli(argv)
}
