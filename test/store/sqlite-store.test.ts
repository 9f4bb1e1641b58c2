import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineStoreContract } from './store-contract.js';

defineStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-store-'));
  return {
    options: { sqliteFile: join(dir, 'nested', 'twinline.sqlite') },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
