import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { Agent } from 'node:https'
import { rootCertificates } from 'node:tls'
import type { Clock } from '../../clock.js'
import type { SecretBox } from '../../crypto.js'
import type { AcmeStore } from './acme-store.js'
import { HOUR_MS } from '../../clock.js'

/**
 * Certificates from an ACME CA (RFC 8555) with acme-client over HTTP-01. The account key is
 * created once per directory and kept encrypted in the database; challenge tokens live in the
 * database so whichever instance receives the CA's validation request can answer it.
 */

export interface IssuedCertificate {
  /** Leaf first, then the chain, PEM. */
  certPem: string
  keyPem: string
  issuer: string
  serial: string
  notBefore: number
  notAfter: number
}

export interface AcmeOptions {
  store: AcmeStore
  secrets: SecretBox
  clock: Clock
  directoryUrl: string
  email?: string | undefined
  /** Extra PEM file to trust for the ACME directory's HTTPS (a private or test CA). */
  caFile?: string | undefined
  /**
   * acme-client's own check that the challenge is reachable before asking the CA to validate it
   * (spares failed authorizations at Let's Encrypt). Off in tests where the domain only resolves
   * through the test DNS server.
   */
  precheck?: boolean
}

/** Challenge tokens older than this are dropped (an order that never completed). */
const CHALLENGE_TTL_MS = HOUR_MS

/** Facts of a PEM certificate (the first one of a chain). */
export function certificateFacts(
  pem: string,
): Pick<IssuedCertificate, 'issuer' | 'serial' | 'notBefore' | 'notAfter'> {
  const x = new X509Certificate(pem)
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(x.issuer)?.[1]
  return {
    issuer: cn ?? x.issuer.replace(/\n/g, ', '),
    serial: x.serialNumber,
    notBefore: Date.parse(x.validFrom),
    notAfter: Date.parse(x.validTo),
  }
}

export function createAcme(opts: AcmeOptions) {
  const { store } = opts
  let configured: Promise<typeof import('acme-client')> | undefined

  /** acme-client, loaded on first use (start-up does not pay for it), trusting `caFile` if given. */
  function client(): Promise<typeof import('acme-client')> {
    configured ??= import('acme-client').then((mod) => {
      const acme = (mod as { default?: typeof import('acme-client') }).default ?? mod
      if (opts.caFile)
        acme.axios.defaults.httpsAgent = new Agent({
          ca: [...rootCertificates, readFileSync(opts.caFile, 'utf8')],
        })
      return acme
    })
    return configured
  }

  /** The account key for this directory: created once, then always the same. */
  async function account(): Promise<{ key: string; url: string | null }> {
    const read = () => store.account(opts.directoryUrl)
    let row = await read()
    if (!row) {
      const acme = await client()
      const key = (await acme.crypto.createPrivateEcdsaKey()).toString()
      await store.addAccountUnlessPresent(opts.directoryUrl, opts.secrets.encrypt(key), opts.clock.now())
      row = await read()
      if (!row) throw new Error('ACME account key was not stored')
    }
    return { key: opts.secrets.decrypt(row.keySealed), url: row.url }
  }

  return {
    directoryUrl: opts.directoryUrl,

    /** The key authorization for an HTTP-01 token, if one is being validated. */
    async challengeResponse(token: string): Promise<string | undefined> {
      return store.challengeResponse(token, opts.clock.now())
    },

    /** Orders a certificate for `domain` (HTTP-01), waits for it, returns it with its new key. */
    async issue(domain: string): Promise<IssuedCertificate> {
      const acme = await client()
      const acct = await account()
      // The account is looked up by its key on every order rather than trusted from the stored
      // URL: a CA that forgot it (a restarted test CA, a deactivated account) then gets the key
      // registered again instead of failing every renewal. Two small requests per order.
      const c = new acme.Client({
        directoryUrl: opts.directoryUrl,
        accountKey: acct.key,
        backoffAttempts: 10,
        backoffMin: 500,
        backoffMax: 5000,
      })
      try {
        await c.createAccount({ onlyReturnExisting: true })
      } catch {
        await c.createAccount({
          termsOfServiceAgreed: true,
          ...(opts.email ? { contact: [`mailto:${opts.email}`] } : {}),
        })
      }
      const [key, csr] = await acme.crypto.createCsr(
        { commonName: domain, altNames: [domain] },
        await acme.crypto.createPrivateEcdsaKey(),
      )
      const certPem = await c.auto({
        csr,
        ...(opts.email ? { email: opts.email } : {}),
        termsOfServiceAgreed: true,
        challengePriority: ['http-01'],
        skipChallengeVerification: opts.precheck === false,
        async challengeCreateFn(_authz, challenge, keyAuthorization) {
          const t = opts.clock.now()
          await store.putChallenge(challenge.token, keyAuthorization, t, t + CHALLENGE_TTL_MS)
        },
        async challengeRemoveFn(_authz, challenge) {
          await store.removeChallenge(challenge.token)
        },
      })
      if (acct.url !== c.getAccountUrl()) await store.setAccountUrl(opts.directoryUrl, c.getAccountUrl())
      return { certPem, keyPem: key.toString(), ...certificateFacts(certPem) }
    },
  }
}
export type Acme = ReturnType<typeof createAcme>
