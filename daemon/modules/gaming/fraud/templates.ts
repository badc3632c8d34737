/**
 * The six templates in docs/reference/fraud.md, created as ordinary rules when fraud is enabled on a game (once):
 * the three recommended enabled, the others disabled. Thresholds on the detector scores (0-1).
 */
import type { RuleAction, RuleOperator, RuleValue } from '../../../../src/contract/fraud.js'

export interface Template {
  name: string
  action: RuleAction
  field: string
  operator: RuleOperator
  value: RuleValue
  enabled: boolean
}

export const TEMPLATES: readonly Template[] = [
  {
    name: 'Block Bot Traffic',
    action: 'block',
    field: 'score.bot_detection',
    operator: 'gte',
    value: 0.8,
    enabled: true,
  },
  {
    name: 'Block Click Injection',
    action: 'block',
    field: 'score.click_injection',
    operator: 'gte',
    value: 0.8,
    enabled: true,
  },
  {
    name: 'Flag Device Farms',
    action: 'flag',
    field: 'score.device_farm',
    operator: 'gte',
    value: 0.7,
    enabled: true,
  },
  {
    name: 'Rate Limit Abuse',
    action: 'block',
    field: 'score.rate_limit',
    operator: 'gte',
    value: 0.9,
    enabled: false,
  },
  {
    name: 'Block Emulators',
    action: 'block',
    field: 'score.emulator',
    operator: 'gte',
    value: 0.8,
    enabled: false,
  },
  {
    name: 'Flag Revenue Anomalies',
    action: 'flag',
    field: 'score.revenue_anomaly',
    operator: 'gte',
    value: 0.7,
    enabled: false,
  },
]
