#!/usr/bin/env node
// The `weir` command. The broker is TypeScript run directly, so this registers tsx's loader in this
// process and imports the entry point. One process (rather than a child running tsx) means signals
// reach the broker directly and its exit status is ours, with nothing to forward.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
