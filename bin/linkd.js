#!/usr/bin/env node
import '../dist/bundle/daemon/main.js'
