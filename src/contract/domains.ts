import Type, { type Static } from 'typebox'
import { HTTP_URL_PATTERN } from './text.js'
import { Nullable, PageQuery, StringEnum, Timestamp } from './common.js'
import {
  ANDROID_PACKAGE_PATTERN,
  APPLE_APP_ID_PATTERN,
  APPLE_PATH_PATTERN,
  APP_LINK_LIMITS,
  SHA256_FINGERPRINT_PATTERN,
  DNS_RECORD_STATUSES,
  DNS_RECORD_TYPES,
  DOMAIN_LIMITS,
  DOMAIN_VERIFICATION_METHODS,
  DOMAIN_VERIFICATION_STATUSES,
  SSL_STATUSES,
} from './limits.js'

/** The path of the verification file on the domain: this prefix, then the token. */
export const VERIFICATION_FILE_PREFIX = '/.well-known/linkd-verification/'

const VerificationMethod = StringEnum(DOMAIN_VERIFICATION_METHODS, {
  description:
    'How ownership is proved. CNAME (subdomains: TXT challenge + CNAME) and TXT (apex domains: TXT challenge + A) are chosen from the domain type when left out; FILE: a file at http://<domain>/.well-known/linkd-verification/<token> (for a domain still served elsewhere; see verificationFile)',
})

export const AddDomainBody = Type.Object(
  {
    domain: Type.String({
      minLength: 1,
      maxLength: DOMAIN_LIMITS.domainMax,
      description:
        'Host name only: no protocol, path or trailing slash; lowercase letters, digits, hyphens and dots',
      examples: ['go.example.com'],
    }),
    verificationMethod: Type.Optional(VerificationMethod),
  },
  { additionalProperties: false },
)
export type AddDomainBody = Static<typeof AddDomainBody>

export const UpdateDomainBody = Type.Object(
  {
    isDefault: Type.Optional(
      Type.Boolean({
        description:
          'true makes the (verified) domain the default for new links; false returns to the shared domain',
      }),
    ),
    rootRedirectUrl: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2048,
          pattern: HTTP_URL_PATTERN,
          description: 'Where the bare domain (path /) redirects; null: 404',
        }),
      ),
    ),
    verificationMethod: Type.Optional(
      StringEnum(DOMAIN_VERIFICATION_METHODS, {
        description:
          'Switch how a domain not yet verified proves ownership (422 once verified): FILE, or the DNS method of its type (CNAME for subdomains, TXT for apex domains)',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateDomainBody = Static<typeof UpdateDomainBody>

export const DnsRecord = Type.Object({
  type: StringEnum(DNS_RECORD_TYPES),
  name: Type.String({ description: 'Fully qualified record name' }),
  value: Type.String(),
  status: StringEnum(DNS_RECORD_STATUSES),
})
export type DnsRecord = Static<typeof DnsRecord>

export const VerificationFile = Type.Object(
  {
    url: Type.String({
      description: 'Where linkd fetches the file: plain HTTP, port 80, no redirect followed',
      examples: ['http://go.example.com/.well-known/linkd-verification/3kTqZ8vN1cR7yW2pL5mX9aB4dF6gH0jS'],
    }),
    path: Type.String({ examples: ['/.well-known/linkd-verification/3kTqZ8vN1cR7yW2pL5mX9aB4dF6gH0jS'] }),
    body: Type.String({
      description:
        "The file's exact content (the same value as the TXT challenge); whitespace around it is ignored",
      examples: ['linkd-verify=3kTqZ8vN1cR7yW2pL5mX9aB4dF6gH0jS'],
    }),
    status: StringEnum(DNS_RECORD_STATUSES, {
      description: 'Pending until checked, then Verified or Failed (the last check)',
    }),
    reason: Nullable(
      Type.String({
        description: 'Why the last check failed (HTTP status, body, redirect, refusal, timeout)',
      }),
    ),
  },
  { description: 'FILE verification: what to publish, and the last check; null for DNS methods' },
)
export type VerificationFile = Static<typeof VerificationFile>

export const Domain = Type.Object(
  {
    id: Type.String(),
    domain: Type.String(),
    verificationStatus: StringEnum(DOMAIN_VERIFICATION_STATUSES),
    sslStatus: Nullable(StringEnum(SSL_STATUSES)),
    isDefault: Type.Boolean(),
    verificationMethod: VerificationMethod,
    dnsRecords: Type.Array(DnsRecord, {
      description:
        'The records to create. With FILE verification only the CNAME or A record that brings traffic to linkd: it is not needed to verify (create it when moving the domain here)',
    }),
    verificationFile: Nullable(VerificationFile),
    warnings: Type.Array(Type.String(), {
      description:
        'Why the DNS records cannot work in this set-up, naming the setting to change (LINKD_CNAME_TARGET when the CNAME target is an IP address, localhost or has a port; LINKD_A_RECORD_IP for apex domains). Empty when they can.',
    }),
    rootRedirectUrl: Nullable(Type.String()),
    rootRedirectFlagged: Nullable(
      Type.Object(
        {
          host: Type.String({
            description: 'The listed host (the root redirect host or a parent domain of it)',
          }),
          list: Type.String({ description: "The safety list's name" }),
          flaggedAt: Timestamp,
        },
        {
          description:
            "The root redirect's host is on one of the organization's safety lists (found after it was set): `/` answers a warning page instead of the redirect. null when not",
        },
      ),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    verifiedAt: Nullable(Timestamp),
    lastCheckedAt: Nullable(Timestamp),
    sslExpiresAt: Nullable(Timestamp),
  },
  { $id: 'Domain', title: 'Domain' },
)
export type Domain = Static<typeof Domain>

export const ListDomainsQuery = Type.Object(
  {
    ...PageQuery.properties,
    verificationStatus: Type.Optional(StringEnum(DOMAIN_VERIFICATION_STATUSES)),
  },
  { additionalProperties: false },
)
export type ListDomainsQuery = Static<typeof ListDomainsQuery>

export const DomainStats = Type.Object({
  totalDomains: Type.Integer(),
  activeDomains: Type.Integer({ description: 'Verified with active SSL' }),
  totalClicks: Type.Integer({ description: 'Clicks of links on custom domains' }),
  domainsWithSsl: Type.Integer({
    description: 'Domains with a certificate being served (active or renewing)',
  }),
})
export type DomainStats = Static<typeof DomainStats>

const ResolverAnswer = Type.Object({
  resolver: Type.String(),
  status: StringEnum(DNS_RECORD_STATUSES),
  found: Type.Array(Type.String()),
  reachable: Type.Boolean({
    description:
      'false when the resolver could not be reached (no answer in time, connection refused): its status is Pending and says nothing about the record',
  }),
  error: Type.Optional(
    Type.String({
      description:
        'Why the answer is inconclusive, as the DNS error code (ETIMEOUT, ECONNREFUSED, ESERVFAIL, EREFUSED, …)',
    }),
  ),
})
export const Propagation = Type.Object({
  domain: Type.String(),
  propagated: Type.Boolean({ description: 'Every resolver returns every record' }),
  checkedAt: Timestamp,
  resolvers: Type.Array(Type.String()),
  records: Type.Array(Type.Object({ ...DnsRecord.properties, resolvers: Type.Array(ResolverAnswer) })),
})
export type Propagation = Static<typeof Propagation>

export const SslDetails = Type.Object({
  domainId: Type.String(),
  domain: Type.String(),
  sslStatus: Nullable(StringEnum(SSL_STATUSES)),
  issuer: Nullable(Type.String()),
  serialNumber: Nullable(Type.String()),
  validFrom: Nullable(Timestamp),
  validTo: Nullable(Timestamp),
  daysRemaining: Nullable(Type.Integer()),
  nextRenewalAt: Nullable(Timestamp),
  renewedAt: Nullable(Timestamp),
  error: Nullable(Type.String()),
})
export type SslDetails = Static<typeof SslDetails>

const L = APP_LINK_LIMITS
export const IosAppLinks = Type.Object(
  {
    appIds: Type.Array(
      Type.String({
        maxLength: 200,
        pattern: APPLE_APP_ID_PATTERN,
        examples: ['ABCDE12345.com.example.game'],
      }),
      { minItems: 1, maxItems: L.appIdsMax, uniqueItems: true, description: 'Team ID, a dot, the bundle ID' },
    ),
    paths: Type.Array(Type.String({ minLength: 1, maxLength: L.pathMax, pattern: APPLE_PATH_PATTERN }), {
      minItems: 1,
      maxItems: L.pathsMax,
      description:
        'Paths the app opens, in order (the first match decides): `*` and `?` are wildcards, `NOT /x/*` excludes. Served as `components`',
      examples: [['/*']],
    }),
  },
  { additionalProperties: false },
)
export const AndroidAppLinks = Type.Object(
  {
    packageName: Type.String({
      maxLength: L.packageNameMax,
      pattern: ANDROID_PACKAGE_PATTERN,
      examples: ['com.example.game'],
    }),
    sha256CertFingerprints: Type.Array(Type.String({ pattern: SHA256_FINGERPRINT_PATTERN }), {
      minItems: 1,
      maxItems: L.fingerprintsMax,
      description:
        "SHA-256 of the app's signing certificates, 32 hex pairs joined by colons (stored upper case)",
    }),
  },
  { additionalProperties: false },
)

/** What a custom domain's `.well-known` files say; null: that platform's file answers 404. */
export const AppLinks = Type.Object(
  { ios: Nullable(IosAppLinks), android: Nullable(AndroidAppLinks) },
  { additionalProperties: false, title: 'AppLinks' },
)
export type AppLinks = Static<typeof AppLinks>
