/** Debian's headless Chromium driven by playwright-core, as the browser end-to-end tests start it. */
import type { Browser } from 'playwright-core'
import { findBinary } from './binaries.js'

/**
 * A Chromium flag that resolves no host name but 127.0.0.1: a redirect to an outside site (a
 * store) fails at once with ERR_NAME_NOT_RESOLVED, without a DNS query, and its URL can be read
 * from the failed request (playwright's routes do not see a redirect's follow-up request).
 */
export const LOOPBACK_ONLY = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'

/**
 * A host name for a test's own server on loopback, which Chromium started with LOCAL_SITE_RULE
 * resolves to 127.0.0.1: link destinations may not name a loopback host.
 */
export const LOCAL_SITE = 'site.test'
export const LOCAL_SITE_RULE = `--host-resolver-rules=MAP ${LOCAL_SITE} 127.0.0.1`

export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  return chromium.launch({
    executablePath: findBinary('chromium'),
    headless: true,
    // As root, without the network: no sandbox, none of Chromium's own background requests
    // (playwright starts it on a new empty profile of its own).
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  })
}
