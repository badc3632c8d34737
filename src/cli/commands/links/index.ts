/**
 * `linkctl links ...`: short links over /api/use/links. Each verb is one file beside this one
 * (`links import` → import.ts) with its flags (`register`) and its work (`runLinks<Verb>`);
 * shared.ts holds what several verbs use. The order below is the order of `links --help`.
 */
import type { Command } from 'commander'
import { register as registerClicks } from './clicks.js'
import { register as registerCreate } from './create.js'
import { register as registerDelete } from './delete.js'
import { register as registerExport } from './export.js'
import { register as registerGet } from './get.js'
import { register as registerImport } from './import.js'
import { register as registerList } from './list.js'
import { register as registerOpen } from './open.js'
import { register as registerQr } from './qr.js'
import { register as registerShare } from './share.js'
import { register as registerStats } from './stats.js'
import { register as registerUpdate } from './update.js'

export function register(program: Command): void {
  const links = program.command('links').description('manage short links, their QR codes and analytics')
  for (const registerVerb of [
    registerCreate,
    registerList,
    registerGet,
    registerUpdate,
    registerDelete,
    registerOpen,
    registerQr,
    registerShare,
    registerStats,
    registerClicks,
    registerImport,
    registerExport,
  ])
    registerVerb(links)
}
