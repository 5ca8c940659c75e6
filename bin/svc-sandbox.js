#!/usr/bin/env node
// The compiled command (npm install builds dist/ through the prepare script).
await import('../dist/cli/svc-sandbox.js');
