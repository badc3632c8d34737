/** Organizations and their plans; owns `organizations`. No routes: `linkd org` and other modules use it. */
export type * from './api.js'
export { DEFAULT_ORG_NAME, createOrgService } from './service.js'
export { createOrgStore, type Organization } from './store.js'
