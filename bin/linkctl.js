#!/usr/bin/env node
import '../dist/bundle/src/cli/main.js'
