export { DEFAULT_ORG_NAME, createOrgService, type OrgService } from './service.js'
export { createOrgStore } from './store.js'
