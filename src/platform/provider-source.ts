import { readFileSync, statSync } from 'node:fs';
import {
  createProvider,
  type ModelProvider,
  type ModelServiceSettings,
  NoProviderError,
  parseProviderSpec,
  type Script,
  ScriptedProvider,
} from '../agent/index.js';
import { yamlPackage } from '../core/index.js';

/** A file older than this is taken as settled: its mtime would change if it were rewritten. */
const SETTLED_MS = 1_000;

interface CachedScript {
  readonly mtimeMs: number;
  readonly size: number;
  readonly ino: number;
  readonly data: Script;
}

/**
 * A fresh model provider per request (a scripted model replays its script from the start each
 * time), without re-reading and re-parsing a `scripted:` file on every request: the parsed script
 * is kept while the file's inode, size and mtime stay the same. A file modified within the last
 * second is always re-read, since a rewrite inside one coarse mtime tick would look unchanged.
 * Returns `undefined` when no model is configured (the lines degrade); other errors are thrown.
 */
export function providerSource(
  spec: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  service?: Partial<ModelServiceSettings>,
): () => ModelProvider | undefined {
  if (!spec) return () => undefined;
  const create = (): ModelProvider | undefined => {
    try {
      return createProvider({ model: spec, ...(service ? { service } : {}) }, env as NodeJS.ProcessEnv);
    } catch (err) {
      if (err instanceof NoProviderError) return undefined;
      throw err;
    }
  };
  let parsed: ReturnType<typeof parseProviderSpec>;
  try {
    parsed = parseProviderSpec(spec);
  } catch {
    return create; // the same error, raised where the request asks for a model
  }
  if (parsed.kind !== 'scripted') return create;
  const path = parsed.path;
  let cached: CachedScript | undefined;
  return () => {
    const st = statSync(path, { throwIfNoEntry: false });
    if (st && cached && st.mtimeMs === cached.mtimeMs && st.size === cached.size && st.ino === cached.ino) {
      return new ScriptedProvider(cached.data, path);
    }
    // Read, validate and report errors exactly as `scripted:` always has.
    const provider = ScriptedProvider.fromFile(path);
    cached = undefined;
    if (st && Date.now() - st.mtimeMs > SETTLED_MS) {
      const text = readFileSync(path, 'utf8');
      const after = statSync(path, { throwIfNoEntry: false });
      if (after && after.mtimeMs === st.mtimeMs && after.size === st.size && after.ino === st.ino) {
        const data = (/\.json$/i.test(path) ? JSON.parse(text) : yamlPackage().parse(text)) as Script;
        cached = { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, data };
      }
    }
    return provider;
  };
}
