/** The keys module's interfaces, imported by its own files (other modules import its index.ts). */
import type { PageOf } from '../../../src/contract/common.js'
import type {
  ApiKey,
  ApiKeyWithSecret,
  CreateKeyBody,
  KeyActivity,
  KeyTestResult,
  ListKeysQuery,
  UpdateKeyBody,
} from '../../../src/contract/keys.js'
import type { Preset } from '../../../src/contract/scopes.js'
import type { AuthResult } from './authentication.js'
import type { KeyCaller } from './guards.js'
import type { KeyRecord } from './store.js'
import type { RequestUsage, UsageRecorder } from './usage.js'

export interface KeyService {
  /** The activity and usage buffer: flush, start, stop, pending. */
  usage: UsageRecorder
  /** Creates a key; `callerScopes` (the creating key's) bounds what it may grant. */
  create(
    organizationId: string,
    body: CreateKeyBody,
    callerScopes?: readonly string[],
    opts?: { overPlanLimit?: boolean; memberId?: string },
  ): Promise<ApiKeyWithSecret>
  /** The owner key of an organization: every scope, for its first owner member. */
  createOwnerKey(organizationId: string): Promise<ApiKeyWithSecret>
  /** Offline recovery key (`linkd keys create`), made even beyond the plan's key limit. */
  createRecoveryKey(organizationId: string, opts: { name: string; preset: Preset }): Promise<ApiKeyWithSecret>
  /** A page of the organization's keys (a member's or viewer's own keys only). */
  list(organizationId: string, q: ListKeysQuery, caller?: KeyCaller): Promise<PageOf<ApiKey>>
  /** One key; 404 otherwise (403 for a member or viewer asking about another member's key). */
  get(organizationId: string, id: string, caller?: KeyCaller): Promise<ApiKey>
  /** Edits a key; the caller must hold every scope of the target and grant only scopes it holds. */
  update(organizationId: string, id: string, body: UpdateKeyBody, caller?: KeyCaller): Promise<ApiKey>
  /** A new value for a key (returned once). */
  regenerate(organizationId: string, id: string, caller?: KeyCaller): Promise<ApiKeyWithSecret>
  /** Revokes a key for good (never the organization's last key manager). */
  revoke(organizationId: string, id: string, caller?: KeyCaller): Promise<ApiKey>
  /** Brings an inactive key back to active. */
  activate(organizationId: string, id: string, caller?: KeyCaller): Promise<ApiKey>
  /** Suspends a key until activated (never the organization's last key manager). */
  deactivate(organizationId: string, id: string, caller?: KeyCaller): Promise<ApiKey>
  /** Deletes a key (never the organization's last key manager). */
  delete(organizationId: string, id: string, caller?: KeyCaller): Promise<void>
  /** A page of a key's request log, newest first. */
  activity(
    organizationId: string,
    id: string,
    q: { page?: number; limit?: number; perPage?: number },
    caller?: KeyCaller,
  ): Promise<PageOf<KeyActivity>>
  /** Revokes every key of a member at once (the member is removed); returns how many. */
  revokeMemberKeys(organizationId: string, memberId: string): Promise<number>
  /** Resolves a presented key value to its record, or the reason it is refused. */
  authenticate(raw: string | undefined): Promise<AuthResult>
  /** The key tester (POST /api/keys/test): validity, reason, and the key's identity and limits. */
  test(raw: string, rateLimit: (k: KeyRecord) => Promise<KeyTestResult['rateLimit']>): Promise<KeyTestResult>
  /** Buffers one authenticated request for the activity log and usage counters. */
  record(entry: RequestUsage): void
  /** Job: persists the expired transition of keys whose expiry passed; returns how many. */
  expireDue(): Promise<number>
  /** Job: drops activity older than the retention; returns how many rows. */
  pruneActivity(retentionDays: number): Promise<number>
}
