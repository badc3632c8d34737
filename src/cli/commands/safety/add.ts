/** `linkctl safety lists add <file> --name <name>`: upload a feed file (the same name replaces that list). */
import { readFile } from 'node:fs/promises'
import { Option, type Command } from 'commander'
import { SAFETY_FORMATS, type SafetyFormat } from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, note, plural, printRecord, when } from '../../output.js'
import { readFailure } from '../../sink.js'

export interface AddFlags {
  file: string
  name: string
  format?: SafetyFormat
}

export async function runSafetyListsAdd(o: AddFlags, ctx: Ctx): Promise<void> {
  let bytes: Buffer
  try {
    bytes = o.file === '-' ? await readStdin(ctx) : await readFile(o.file)
  } catch (err) {
    throw readFailure(o.file, err)
  }
  // A .gz download is sent as it is (the daemon decompresses it).
  const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b
  await requireKey(ctx)
  const list = await (
    await ctx.client()
  ).safety.uploadList(o.name, bytes, {
    ...(o.format && { format: o.format }),
    gzip,
  })
  await emit(ctx, list, () => {
    printRecord(ctx, [
      ['ID', list.id],
      ['NAME', list.name],
      ['FORMAT', list.format],
      ['HOSTS', list.entries],
      ['SKIPPED LINES', list.skipped],
      ['CREATED', when(list.createdAt, ctx.isTTY)],
      ['UPDATED', when(list.updatedAt, ctx.isTTY)],
    ])
    note(
      ctx,
      `${plural(list.entries, 'host')} listed; existing links and domain roots are re-checked in the background`,
    )
  })
}

async function readStdin(ctx: Ctx): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const c of ctx.stdin as AsyncIterable<Buffer | string>)
    chunks.push(typeof c === 'string' ? Buffer.from(c) : c)
  return Buffer.concat(chunks)
}

export function register(lists: Command): void {
  const add = lists
    .command('add')
    .description('upload a feed file as a safety list (the same name replaces that list)')
    .argument('<file>', 'hosts file, one domain a line, or URLhaus CSV (optionally .gz); - reads stdin')
    .requiredOption('--name <name>', 'list name: letters, digits, dot, dash, underscore')
    .addOption(new Option('--format <format>', 'file format (default: guessed)').choices(SAFETY_FORMATS))
  jsonOption(add).action(
    action<Omit<AddFlags, 'file'>>(([file], o, ctx) => runSafetyListsAdd({ ...o, file: file ?? '' }, ctx)),
  )
}
