import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOfficeDomain, type TwinlineConfig } from '../../src/config/index.js';
import { sourcesMatch } from '../../src/core/index.js';
import { injectionPrefilter, KEYWORD_INDEX_ARTIFACT } from '../../src/gates/index.js';
import { KeywordIndex } from '../../src/gates/input/keyword-index.js';
import { loadPolicyFile } from '../../src/policy/index.js';
import { ROOT } from './module-trace.js';

const BUNDLE = join(ROOT, 'dist/bundle');

describe('build-time artifacts of the bundled CLI (npm run build)', () => {
  beforeAll(() => {
    if (!existsSync(join(BUNDLE, 'main.js'))) throw new Error('dist/bundle is missing: run `npm run build`');
  });

  it('the office configuration snapshot is what loadOfficeDomain() returns, for the current YAML', () => {
    const cwd = process.cwd();
    const snapshot = JSON.parse(
      readFileSync(join(BUNDLE, 'office-config.json'), 'utf8'),
      (_k, v: unknown) => {
        if (typeof v !== 'string') return v;
        if (v.startsWith('\0cwd')) return join(cwd, v.slice(4));
        if (v.startsWith('\0root')) return join(ROOT, v.slice(5));
        return v;
      },
    ) as { sources: string[]; contents: string[]; config: TwinlineConfig };
    expect(sourcesMatch(snapshot.sources, snapshot.contents)).toBe(true);
    expect(
      sourcesMatch(
        snapshot.sources,
        snapshot.contents.map((c) => `${c} `),
      ),
    ).toBe(false);
    const { policyDocuments, ...config } = snapshot.config;
    expect(config).toEqual(loadOfficeDomain());
    // the policy files, already parsed: what loadPolicyFile() reads from them now
    expect(policyDocuments).toEqual(config.policies.map((f) => loadPolicyFile(f)));
    expect(policyDocuments?.[0]?.rules.length).toBeGreaterThan(0);
  });

  it('the injection pre-filter index was built from the current recognisers, and finds the same', () => {
    const prefilter = injectionPrefilter();
    const bytes = readFileSync(join(BUNDLE, KEYWORD_INDEX_ARTIFACT));
    expect(Buffer.from(prefilter.indexBytes()).equals(bytes)).toBe(true);
    const read = KeywordIndex.fromBytes(bytes, prefilter.keywords);
    expect(read).toBeDefined();
  });

  it('the pre-bundled office tools module names the sources it was built from', () => {
    const manifest = JSON.parse(readFileSync(join(BUNDLE, 'prebuilt.json'), 'utf8')) as Record<
      string,
      { bundle: string; sources: string[]; contents: string[] }
    >;
    const office = manifest['examples/office/tools/index.ts'];
    expect(office?.sources).toContain('examples/office/tools/index.ts');
    expect(existsSync(join(BUNDLE, office?.bundle ?? 'missing'))).toBe(true);
  });
});
