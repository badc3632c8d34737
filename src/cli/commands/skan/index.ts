/**
 * `linkctl skan ...`: SKAN campaigns of a game over /api/v1/skan, each verb one file
 * (`skan optimize` → optimize.ts).
 */
import type { Command } from 'commander'
import { register as registerOptimize } from './optimize.js'

export function register(program: Command): void {
  const skan = program
    .command('skan')
    .description('SKAN campaigns: conversion schemas and their optimization')
  registerOptimize(skan)
}
