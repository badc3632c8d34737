/**
 * `linkctl domains app-links <domain>`: what the domain serves as apple-app-site-association and
 * assetlinks.json. Without flags it shows them; a platform's flags replace that platform's values
 * given (the others stay), `--clear-ios` / `--clear-android` remove a platform (its file answers 404).
 */
import type { Command } from 'commander'
import type { AppLinks } from '../../../contract/domains.js'
import { jsonOption } from '../../action.js'
import { collect } from '../../parse.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit, printRecord } from '../../output.js'
import { type IdOpts, DOMAIN_ARGUMENT, domainAction } from './shared.js'

export interface AppLinksOpts extends IdOpts {
  iosAppId?: string[]
  iosPath?: string[]
  androidPackage?: string
  androidFingerprint?: string[]
  clearIos?: boolean
  clearAndroid?: boolean
}

/** The app links after the flags, from the current ones; undefined when no flag changes anything. */
export function applyAppLinkFlags(current: AppLinks, o: AppLinksOpts): AppLinks | undefined {
  const ios = o.iosAppId !== undefined || o.iosPath !== undefined
  const android = o.androidPackage !== undefined || o.androidFingerprint !== undefined
  if (o.clearIos && ios)
    throw new UsageError('--clear-ios cannot be combined with --ios-app-id or --ios-path')
  if (o.clearAndroid && android)
    throw new UsageError('--clear-android cannot be combined with --android-package or --android-fingerprint')
  if (!ios && !android && !o.clearIos && !o.clearAndroid) return undefined
  const next: AppLinks = { ...current }
  if (o.clearIos) next.ios = null
  else if (ios) {
    const appIds = o.iosAppId ?? current.ios?.appIds
    if (!appIds) throw new UsageError('iOS app links need --ios-app-id TEAMID.bundle.id')
    next.ios = { appIds, paths: o.iosPath ?? current.ios?.paths ?? ['/*'] }
  }
  if (o.clearAndroid) next.android = null
  else if (android) {
    const packageName = o.androidPackage ?? current.android?.packageName
    const sha256CertFingerprints = o.androidFingerprint ?? current.android?.sha256CertFingerprints
    if (!packageName || !sha256CertFingerprints)
      throw new UsageError('Android app links need --android-package and --android-fingerprint')
    next.android = { packageName, sha256CertFingerprints }
  }
  return next
}

export async function runDomainsAppLinks(opts: AppLinksOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const current = await client.domains.appLinks(opts.id)
  const next = applyAppLinkFlags(current, opts)
  const shown = next ? await client.domains.setAppLinks(opts.id, next) : current
  await emit(ctx, shown, () =>
    printRecord(ctx, [
      ['IOS APP IDS', shown.ios?.appIds.join(', ') ?? ''],
      ['IOS PATHS', shown.ios?.paths.join(', ') ?? ''],
      ['ANDROID PACKAGE', shown.android?.packageName ?? ''],
      ['ANDROID FINGERPRINTS', shown.android?.sha256CertFingerprints.join(', ') ?? ''],
    ]),
  )
}

/** The repeatable flags' fields, for a refusal (`ios.appIds.1` → `--ios-app-id bad`). */
const APP_LINK_FLAGS = {
  'ios.appIds[]': '--ios-app-id',
  'ios.paths[]': '--ios-path',
  'android.packageName': '--android-package',
  'android.sha256CertFingerprints[]': '--android-fingerprint',
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('app-links')
      .description(
        'show or set the app links (apple-app-site-association, assetlinks.json) the domain serves',
      )
      .argument('<domain>', DOMAIN_ARGUMENT)
      .option('--ios-app-id <id>', 'Apple app ID: TEAMID.bundle.id (repeatable)', collect)
      .option(
        '--ios-path <path>',
        'path the iOS app opens: /*, /games/*, NOT /admin/* (repeatable; default /*)',
        collect,
      )
      .option('--android-package <name>', 'Android package name, such as com.example.game')
      .option(
        '--android-fingerprint <sha256>',
        'SHA-256 of the signing certificate, 32 hex pairs joined by colons (repeatable)',
        collect,
      )
      .option('--clear-ios', 'stop serving apple-app-site-association')
      .option('--clear-android', 'stop serving assetlinks.json'),
  ).action(domainAction<Omit<AppLinksOpts, 'id'>>(runDomainsAppLinks, { flagOf: APP_LINK_FLAGS }))
}
