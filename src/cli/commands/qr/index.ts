/**
 * `linkctl qr ...`: QR codes over /api/use/qr-codes (one per flyer or poster, each with its own
 * scans), one verb per file beside this one; shared.ts holds what several verbs use.
 */
import type { Command } from 'commander'
import { register as registerCreate } from './create.js'
import { register as registerDelete } from './delete.js'
import { register as registerGet } from './get.js'
import { register as registerImage } from './image.js'
import { register as registerList } from './list.js'
import { register as registerUpdate } from './update.js'

export function register(program: Command): void {
  const qr = program
    .command('qr')
    .description('manage QR codes of links and smart links: styled, printed, each with its scans')
  for (const registerVerb of [
    registerCreate,
    registerList,
    registerGet,
    registerUpdate,
    registerDelete,
    registerImage,
  ])
    registerVerb(qr)
}
