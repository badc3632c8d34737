/** `linkctl qr list [--link <link>]`: QR codes, newest first (`--limit` rows, or `--all`). */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { qrColumns, targetOf } from './shared.js'

export interface ListQrOpts extends PageFlags {
  link?: string
}

export async function runQrList(opts: ListQrOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const filter = opts.link === undefined ? {} : await targetOf(client, opts.link)
  const page = await fetchList(ctx, opts, (query) => client.qrCodes.list({ ...query, ...filter }))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No QR codes match.')
    await printRows(ctx, page.data, qrColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(qr: Command): void {
  const list = qr.command('list').alias('ls').description('list QR codes with their scans')
  list.option('--link <link>', 'only the codes of this link or smart link (id, short code or short URL)')
  jsonOption(columnsOption(pageOptions(list), qrColumns(false))).action(
    action<ListQrOpts>((_args, opts, ctx) => runQrList(opts, ctx)),
  )
}
