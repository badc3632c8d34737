/** The screens, in tab order. A new screen: its file in this folder and one line here. */
import type { ScreenDef } from '../context.js'
import { domains } from './domains.js'
import { fraud } from './fraud.js'
import { games } from './games.js'
import { gdpr } from './gdpr.js'
import { home } from './home.js'
import { keys } from './keys.js'
import { links } from './links.js'
import { skan } from './skan.js'
import { team } from './team.js'
import { webhooks } from './webhooks.js'

export const SCREENS: ScreenDef[] = [home, links, keys, domains, webhooks, games, fraud, skan, gdpr, team]
