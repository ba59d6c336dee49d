#!/usr/bin/env node
// svc-engine launcher. Node's on-disk compile cache is switched on before the Engine's modules
// load: a warm cold start then skips most parsing and compiling.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./commands.ts');
