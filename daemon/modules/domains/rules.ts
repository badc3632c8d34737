import { isIP } from 'node:net'
import { domainToASCII } from 'node:url'
import { AppError, type ErrorDetail } from '../../http/errors.js'
import { DOMAIN_LIMITS } from '../../../src/contract/limits.js'

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/**
 * A custom domain name as typed: no protocol, path or trailing slash; lowercase letters, digits,
 * hyphens, dots; plus what makes a DNS host name: labels of 1-63 characters not starting or
 * ending with a hyphen, at least two labels, not an IP address. 400 with the reasons otherwise;
 * an internationalized name's say the punycode form to add.
 */
export function checkDomainName(input: string): string {
  const d = input.trim()
  const problems: string[] = []
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(d)) problems.push('must not include a protocol (like https://)')
  if (d.includes('/')) problems.push('must not include a path or trailing slash')
  // An internationalized name (bücher.example): the DNS holds its punycode form, which is the one to add.
  const ascii = /\P{ASCII}/u.test(d) && !problems.length ? domainToASCII(d) : ''
  if (ascii) problems.push(`is an internationalized name: add its punycode form, ${ascii}`)
  else if (/[^a-z0-9.\-/:]/.test(d.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')))
    problems.push(
      /[A-Z]/.test(d)
        ? `must be lowercase (${d.toLowerCase()})`
        : 'may contain only lowercase letters, digits, hyphens and dots',
    )
  if (!problems.length) {
    const labels = d.split('.')
    if (isIP(d)) problems.push('must be a domain name, not an IP address')
    else if (d.length > DOMAIN_LIMITS.domainMax) problems.push('is longer than 253 characters')
    else if (labels.length < 2) problems.push('needs at least two labels, like example.com')
    else if (!labels.every((l) => LABEL.test(l)))
      problems.push('each dot-separated label must be 1-63 characters and not start or end with a hyphen')
    else if (/^\d+$/.test(labels[labels.length - 1]!)) problems.push('must end in a top-level domain')
  }
  if (problems.length) {
    const details: ErrorDetail[] = problems.map((message) => ({ field: 'domain', message }))
    throw new AppError('ValidationError', `domain ${problems.join('; ')}`, details)
  }
  return d
}
