/**
 * `linkctl safety lists ...`: the organization's safety lists (feed files of phishing and malware
 * hosts that link destinations may not use), each verb one file.
 */
import type { Command } from 'commander'
import { register as registerAdd } from './add.js'
import { register as registerList } from './list.js'
import { register as registerRemove } from './remove.js'

export function register(program: Command): void {
  const safety = program.command('safety').description('destination safety: lists of blocked hosts')
  const lists = safety
    .command('lists')
    .description('feed files (hosts, one domain a line, URLhaus CSV) that link destinations may not use')
  for (const registerVerb of [registerList, registerAdd, registerRemove]) registerVerb(lists)
}
