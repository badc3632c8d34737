import type { PageOf } from '../contract/common.js'
import type {
  CreateGameBody,
  Game,
  GameWithSecrets,
  ListGamesQuery,
  UpdateGameBody,
} from '../contract/games.js'
import type { Requests } from './http.js'

/** Games (admin, `/api/v1/admin/games`). */
export function gamesApi(http: Requests) {
  return {
    create: (body: CreateGameBody) => http.data<GameWithSecrets>('POST', '/api/v1/admin/games', { body }),
    list: (query: ListGamesQuery = {}) => http.data<PageOf<Game>>('GET', '/api/v1/admin/games', { query }),
    get: (id: string) => http.data<Game>('GET', `/api/v1/admin/games/${encodeURIComponent(id)}`),
    update: (id: string, body: UpdateGameBody) =>
      http.data<Game>('PATCH', `/api/v1/admin/games/${encodeURIComponent(id)}`, { body }),
    regenerateKey: (id: string) =>
      http.data<GameWithSecrets>('POST', `/api/v1/admin/games/${encodeURIComponent(id)}/sdk-key`),
  }
}
