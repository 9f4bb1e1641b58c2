import { ConfigError } from '../../core/index.js';
import type { ToolSpec } from '../../tools/index.js';
import { findLooseArguments } from './strict-schema.js';

/**
 * The quick line takes strict-schema tools only (docs/lines.md, "Two trust chains"). Refuses at start-up — a
 * `ConfigError` naming the first loose tool and argument, with every loose argument in `details`
 * — rather than letting a model pass arbitrary strings through a high-frequency line.
 */
export function assertStrictQuickTools(tools: readonly ToolSpec[], where = 'lines.quick.allow'): void {
  const loose = tools.flatMap((t) => findLooseArguments(t));
  const first = loose[0];
  if (!first) return;
  throw new ConfigError(
    'config.quick_tool_not_strict',
    `quick-line tool ${first.tool} has a loose argument ${first.path}: ${first.problem}` +
      (loose.length > 1 ? ` (and ${loose.length - 1} more)` : ''),
    {
      where: `${where}: ${first.tool}.${first.path}`,
      details: { tool: first.tool, argument: first.path, loose },
    },
  );
}
