import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importTypeScriptModule } from '../../src/config/typescript-module.js';

const dir = mkdtempSync(join(tmpdir(), 'twinline-tsmod-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('importTypeScriptModule', () => {
  it('compiles once, then loads from the cache until a source file changes', async () => {
    const entry = join(dir, 'tools.ts');
    const dep = join(dir, 'greeting.ts');
    writeFileSync(dep, "export const greeting: string = 'hello';\n");
    writeFileSync(
      entry,
      "import { z } from 'zod';\nimport { greeting } from './greeting.js';\nexport const tools: string[] = [greeting, typeof z.string];\n",
    );
    const first = await importTypeScriptModule(entry);
    expect(first.via).toBe('compiled');
    expect((first.module as { tools: string[] }).tools).toEqual(['hello', 'function']);

    const second = await importTypeScriptModule(entry);
    expect(second.via).toBe('cache');
    expect((second.module as { tools: string[] }).tools).toEqual(['hello', 'function']);

    writeFileSync(dep, "export const greeting: string = 'bonjour!';\n");
    // Make the change visible even on coarse file-system clocks.
    utimesSync(dep, new Date(), new Date(Date.now() + 5000));
    const third = await importTypeScriptModule(entry);
    expect(third.via).toBe('compiled');
    expect((third.module as { tools: string[] }).tools).toEqual(['bonjour!', 'function']);
  });

  it('reports a module that does not compile', async () => {
    const broken = join(dir, 'broken.ts');
    writeFileSync(broken, 'export const = ;\n');
    await expect(importTypeScriptModule(broken)).rejects.toThrow();
  });
});
