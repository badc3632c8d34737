/**
 * The two files that let a custom domain open an app instead of the browser, in the formats Apple
 * and Google document: /.well-known/apple-app-site-association (universal links) and
 * /.well-known/assetlinks.json (Android App Links). Built once per directory refresh.
 */
import type { AppLinks } from '../../../src/contract/domains.js'

export const AASA_PATH = '/.well-known/apple-app-site-association'
export const ASSETLINKS_PATH = '/.well-known/assetlinks.json'

/** Stored form of a request body: fingerprints upper case, duplicates dropped. */
export function normalizeAppLinks(body: AppLinks): AppLinks {
  return {
    ios: body.ios && { appIds: [...new Set(body.ios.appIds)], paths: body.ios.paths },
    android: body.android && {
      packageName: body.android.packageName,
      sha256CertFingerprints: [...new Set(body.android.sha256CertFingerprints.map((f) => f.toUpperCase()))],
    },
  }
}

/**
 * apple-app-site-association in the current format (`appIDs` and `components`, iOS 13 and later),
 * with the empty `apps` array older readers expect. A `NOT ` path becomes an excluding component.
 */
export function appleAppSiteAssociation(ios: NonNullable<AppLinks['ios']>): string {
  const components = ios.paths.map((p) =>
    p.startsWith('NOT ') ? { '/': p.slice(4), exclude: true } : { '/': p },
  )
  return JSON.stringify({ applinks: { apps: [], details: [{ appIDs: ios.appIds, components }] } })
}

/** assetlinks.json: one statement letting the app handle all URLs of the domain. */
export function assetLinks(android: NonNullable<AppLinks['android']>): string {
  return JSON.stringify([
    {
      relation: ['delegate_permission/common.handle_all_urls'],
      target: {
        namespace: 'android_app',
        package_name: android.packageName,
        sha256_cert_fingerprints: android.sha256CertFingerprints,
      },
    },
  ])
}

/**
 * The bodies a domain serves, by path (only the files that are set). Buffers: Fastify sends them
 * with the content type as given (`application/json`, as both documents say), no charset added.
 */
export function wellKnownFiles(links: AppLinks | null): Map<string, Buffer> {
  const files = new Map<string, Buffer>()
  if (links?.ios) files.set(AASA_PATH, Buffer.from(appleAppSiteAssociation(links.ios)))
  if (links?.android) files.set(ASSETLINKS_PATH, Buffer.from(assetLinks(links.android)))
  return files
}
