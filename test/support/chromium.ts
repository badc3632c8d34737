/** Debian's headless Chromium driven by playwright-core, as the browser end-to-end tests start it. */
import type { Browser } from 'playwright-core'
import { findBinary } from './binaries.js'

export async function launchChromium(): Promise<Browser> {
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
    ],
  })
}
