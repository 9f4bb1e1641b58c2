import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TwinlineConfig } from '../config/index.js';
import { assertRetrievalTool, assertStrictQuickTools, resolveLineAllowlists } from '../lines/index.js';
import { configPolicySchema } from '../pipeline/index.js';
import { loadReviewerFile } from '../policy/index.js';
import type { ToolRegistry, ToolSpec } from '../tools/index.js';
import type { LineName } from './platform-types.js';

/** What the platform reads from its configuration before it wires anything. */
export interface PlatformConfig {
  /** reviewers.yaml beside the config file, when there is one. */
  readonly reviewers: ReturnType<typeof loadReviewerFile> | undefined;
  /** The lines' tool names after patterns were expanded (`lines.*.allow`). */
  readonly lineTools: { readonly deep: string[]; readonly quick: string[] };
  /** Each line's tools, as `wrapTool` hands them on. */
  readonly tools: Readonly<Record<LineName, readonly ToolSpec[]>>;
}

/**
 * Reads what the platform needs of its configuration, or throws the error that names what is
 * wrong: reviewers.yaml checked against the policy files' schema, the lines' allowlists expanded
 * against what was registered (names, `mcp__<server>`, globs; MCP tools too), the quick line's
 * tools strict, the retrieval tool fit for the read-only line.
 */
export function platformConfig(
  config: TwinlineConfig,
  registry: ToolRegistry,
  wrapTool: (tool: ToolSpec) => ToolSpec = (t) => t,
): PlatformConfig {
  const reviewersFile = join(dirname(config.file), 'reviewers.yaml');
  const reviewers = existsSync(reviewersFile)
    ? loadReviewerFile(reviewersFile, configPolicySchema(config, registry.list()))
    : undefined;
  const allowed = (names: readonly string[]) =>
    names
      .map((n) => registry.get(n))
      .filter((t): t is ToolSpec => !!t)
      .map(wrapTool);
  const retrieval = config.lines.retrieval;
  const lineTools = resolveLineAllowlists(
    config.lines,
    registry.list().map((t) => t.name),
    config.file,
  );
  assertStrictQuickTools(allowed(lineTools.quick), `${config.file}: lines.quick.allow`);
  if (retrieval)
    assertRetrievalTool(registry.get(retrieval), retrieval, `${config.file}: lines.readonly.retrieval`);
  return {
    reviewers,
    lineTools,
    tools: {
      deep: allowed(lineTools.deep),
      quick: allowed(lineTools.quick),
      readonly: allowed(retrieval ? [retrieval] : []),
    },
  };
}
