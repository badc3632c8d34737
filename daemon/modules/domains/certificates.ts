/**
 * Certificate orders (the domain service's verify, the recheck-domains and renew-certificates
 * jobs): starting one is a claim on the domain's row (store.claimCertificateOrder), so that one
 * order runs per domain at a time across every path and every linkd process; the order's outcome
 * releases the claim, and the claim of a process that died expires after ORDER_RUNS_MS.
 */
import type { Clock } from '../../clock.js'
import type { SecretBox } from '../../crypto.js'
import type { Acme } from './acme.js'
import type { DomainRecord } from './records.js'
import type { DomainStore } from './store.js'

/**
 * Longer than a certificate order takes: a verified domain pending longer was interrupted, and
 * an order's claim on its domain expires after it.
 */
export const ORDER_RUNS_MS = 10 * 60_000

export interface CertificateOrderDeps {
  store: Pick<DomainStore, 'claimCertificateOrder' | 'finishCertificateOrder' | 'update'>
  clock: Clock
  secrets: SecretBox
  /** ACME, or undefined when certificates are off (LINKD_ACME_DIRECTORY=off). */
  acme: Acme | undefined
  onError?(err: unknown, what: string): void
  /** The domain directory changed (a certificate to serve). */
  changed(): Promise<void>
}

export function createCertificateOrders(deps: CertificateOrderDeps) {
  const { store } = deps
  const now = () => deps.clock.now()
  /** This process's orders in progress, by domain id. */
  const inflight = new Map<string, Promise<void>>()

  /**
   * Orders a certificate for `d` in the background (the API answers with sslStatus pending) if
   * the claim is won; a claim not won (an order runs elsewhere, or one finished since `d` was
   * read) orders nothing. `renewal`: `d` has a certificate, renewed (active → renewing → active).
   */
  function provision(d: DomainRecord, renewal = false): Promise<void> {
    const running = inflight.get(d.id)
    if (running) return running
    if (!deps.acme) return Promise.resolve()
    const acme = deps.acme
    const p = (async () => {
      const claimedAt = now()
      if (!(await store.claimCertificateOrder(d.id, d, claimedAt, claimedAt + ORDER_RUNS_MS))) return
      try {
        if (renewal) await store.update(d.id, { sslStatus: 'renewing', updatedAt: now() })
        const cert = await acme.issue(d.domain)
        const t = now()
        await store.finishCertificateOrder(d.id, {
          sslStatus: 'active',
          sslError: null,
          certPem: cert.certPem,
          certKeyEnc: deps.secrets.encrypt(cert.keyPem),
          certIssuer: cert.issuer,
          certSerial: cert.serial,
          certNotBefore: cert.notBefore,
          sslExpiresAt: cert.notAfter,
          sslRenewedAt: renewal ? t : d.sslRenewedAt,
          updatedAt: t,
        })
      } catch (err) {
        deps.onError?.(err, `certificate for ${d.domain}`)
        const t = now()
        const message = (err instanceof Error ? err.message : String(err)).slice(0, 500)
        // A failed renewal keeps serving the current certificate while it is valid (active, error
        // recorded, retried by the next run); past its expiry the status is expired. A failed
        // first issuance is failed (re-verify to try again).
        const stillValid = renewal && d.sslExpiresAt !== null && d.sslExpiresAt > t
        await store.finishCertificateOrder(d.id, {
          sslStatus: !renewal ? 'failed' : stillValid ? 'active' : 'expired',
          sslError: message,
          updatedAt: t,
        })
      }
      await deps.changed()
    })()
      .catch((err: unknown) => deps.onError?.(err, `certificate order for ${d.domain}`))
      .finally(() => inflight.delete(d.id))
    inflight.set(d.id, p)
    return p
  }

  return {
    provision,
    /** This process's order for the domain, if one runs. */
    running: (domainId: string): Promise<void> | undefined => inflight.get(domainId),
    /** Resolves when no order of this process is running (tests, shutdown). */
    async settled(): Promise<void> {
      while (inflight.size) await Promise.allSettled([...inflight.values()])
    },
  }
}
