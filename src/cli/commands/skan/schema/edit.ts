/**
 * `linkctl skan schema edit <campaign>`: the campaign's conversion schema as JSON in $VISUAL /
 * $EDITOR (default vi); saved through the API, whose rules decide. A refused schema (not JSON, or
 * a 400) is said on stderr and, on a terminal, the editor opens again on the edited text.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Command } from 'commander'
import type { ConversionSchemaInput, SkanCampaign } from '../../../../contract/skan.js'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { CliError, EXIT } from '../../../../session/exit-codes.js'
import { emit, note, printRecord } from '../../../output.js'
import { CAMPAIGN_ARGUMENT, campaignFields } from '../shared.js'

/** Runs the editor on a file, its terminal inherited; resolves when it exits (non-zero: an error). */
function runEditor(ctx: Ctx, file: string): Promise<void> {
  const editor = ctx.env.VISUAL || ctx.env.EDITOR || 'vi'
  return new Promise((resolve, reject) => {
    // Through the shell: EDITOR may carry arguments ("code --wait"); the file is passed as $1.
    const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, 'editor', file], {
      stdio: 'inherit',
      env: ctx.env,
    })
    child.on('error', (err) =>
      reject(new CliError(`cannot start the editor ${editor}: ${err.message}`, EXIT.error)),
    )
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new CliError(`the editor ${editor} exited with status ${code}: nothing saved`, EXIT.error)),
    )
  })
}

/** What is wrong with the edited text when the API (or JSON) refuses it; undefined when saved. */
async function trySave(
  ctx: Ctx,
  campaign: string,
  text: string,
): Promise<{ saved: SkanCampaign } | { problem: string }> {
  let schema: unknown
  try {
    schema = JSON.parse(text)
  } catch (err) {
    return { problem: `the schema is not JSON: ${(err as Error).message}` }
  }
  try {
    const client = await ctx.client()
    return {
      saved: await client.skan.updateCampaign(campaign, {
        conversionSchema: schema as ConversionSchemaInput,
      }),
    }
  } catch (err) {
    if ((err as Error).name === 'ApiError' && (err as { status: number }).status === 400)
      return { problem: (err as Error).message }
    throw err
  }
}

export async function runSkanSchemaEdit(o: { campaign: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const current = await (await ctx.client()).skan.campaign(o.campaign)
  const original = `${JSON.stringify(current.conversionSchema, null, 2)}\n`
  const dir = await mkdtemp(join(tmpdir(), 'linkctl-skan-'))
  const file = join(dir, `${current.id}-schema.json`)
  try {
    let text = original
    for (;;) {
      await writeFile(file, text, { mode: 0o600 })
      await runEditor(ctx, file)
      text = await readFile(file, 'utf8')
      if (text.trim() === original.trim()) return note(ctx, 'No changes: the schema was not saved.')
      const result = await trySave(ctx, o.campaign, text)
      if ('saved' in result) {
        const saved = result.saved
        return await emit(ctx, saved, () => printRecord(ctx, campaignFields(saved, ctx.isTTY)))
      }
      if (!ctx.canPrompt) throw new CliError(`the schema was not saved: ${result.problem}`, EXIT.error)
      ctx.stderr.write(`error: ${result.problem}\n`)
      if (!(await ctx.prompt.confirm('Edit the schema again?')))
        throw new CliError('aborted: the schema was not saved', EXIT.error)
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export function register(schema: Command): void {
  jsonOption(
    schema
      .command('edit')
      .description(
        "edit a campaign's conversion schema in $VISUAL or $EDITOR (validated by the daemon; a refused schema is reopened)",
      )
      .argument('<campaign>', CAMPAIGN_ARGUMENT),
  ).action(action(([campaign], _o, ctx) => runSkanSchemaEdit({ campaign: campaign ?? '' }, ctx)))
}
