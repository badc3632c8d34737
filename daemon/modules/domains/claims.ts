import { deriveKey, keyedToken } from '../../crypto.js'
import { AppError } from '../../http/errors.js'
import type { RecordCheck } from './dns.js'

/**
 * Claims of a host across organizations (docs/reference/domains.md): a host belongs to one organization;
 * an unverified claim gives way to an organization that proves control of the host by
 * publishing its claim token in the TXT challenge record.
 */

/**
 * An organization's claim token for a host: `linkd-verify=` and an HMAC of the organization and
 * the host under a key derived from the master key. It is also the verification token of the
 * domain the organization adds, so a record published to take a host over verifies it as well.
 * Another organization, seeing only its own tokens, cannot compute it.
 */
export function claimTokens(masterKey: Buffer): (organizationId: string, host: string) => string {
  const key = deriveKey(masterKey, 'domain-claim')
  return (organizationId, host) => `linkd-verify=${keyedToken(key, `${organizationId}\n${host}`)}`
}

/** 409: the organization has added the host already. */
export function alreadyAdded(host: string): AppError {
  return new AppError('Conflict', `domain ${host} has already been added`, [
    { field: 'domain', message: 'already added to this organization' },
  ])
}

/** 409: another organization has verified the host; it never gives way. */
export function verifiedElsewhere(host: string): AppError {
  return new AppError('Conflict', `domain ${host} is verified by another organization`, [
    { field: 'domain', message: 'verified by another organization' },
  ])
}

/**
 * 409: another organization holds the host unverified. The way out: publish this organization's
 * claim token in the TXT challenge record and add the host again. `txt` is the lookup just made.
 */
export function heldUnverified(host: string, txt: RecordCheck): AppError {
  const found = txt.resolvers.filter((a) => a.status === 'Verified').length
  const unreached = txt.resolvers.filter((a) => !a.reachable).map((a) => a.resolver)
  return new AppError(
    'Conflict',
    `domain ${host} has been added by another organization and is not verified: publish TXT ${txt.name} with value "${txt.value}" and add it again; an unverified claim gives way to an organization that proves control of the domain`,
    [
      { field: 'domain', message: 'added by another organization, not verified' },
      { field: 'txtRecord.name', message: txt.name },
      { field: 'txtRecord.value', message: txt.value },
      {
        field: 'txtRecord',
        message:
          `returned by ${found} of ${txt.resolvers.length} resolvers; every one must return it` +
          (unreached.length ? ` (not reached: ${unreached.join(', ')})` : ''),
      },
    ],
  )
}
