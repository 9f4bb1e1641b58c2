import { z } from 'zod';
import type { ToolSpec } from '../../tools/index.js';
import { ControlToolError } from '../errors.js';
import { callerFrame } from '../frame-context.js';
import { declarationOf } from '../tool-declarations.js';
import { invokeThroughGateway } from '../tool-invocation.js';
import { type ControlToolOptions, controlTool } from './control-manifest.js';

const searchInput = z.object({
  query: z.string().min(1).max(500),
  limit: z.number().int().min(1).max(50).default(10),
});
const callInput = z.object({
  name: z.string().min(1).max(128),
  arguments: z.record(z.string(), z.unknown()).default({}),
});

const BRIDGE_TOOLS: ReadonlySet<string> = new Set(['tool_call', 'tool_search']);

/**
 * tool_search: finds tools by words in their name and description, only among those the calling
 * agent may use (the access layer's set), so search cannot reveal what the agent cannot call.
 */
export function toolSearchTool(opts: ControlToolOptions): ToolSpec<z.infer<typeof searchInput>> {
  return controlTool(opts, {
    name: 'tool_search',
    description: 'Search the tools available to you by keywords; returns their names and argument schemas.',
    inputSchema: searchInput,
    readOnly: true,
    concurrencySafe: true,
    async execute(args, ctx) {
      const frame = callerFrame(ctx, 'tool_search');
      const words = args.query
        .toLowerCase()
        .split(/[\s_,.-]+/)
        .filter(Boolean);
      const scored = frame.runtime.catalog
        .list()
        .filter((t) => frame.tools.has(t.name) && !BRIDGE_TOOLS.has(t.name))
        .map((t) => {
          const hay = `${t.name.replace(/_/g, ' ')} ${t.description}`.toLowerCase();
          return { t, score: words.filter((w) => hay.includes(w)).length };
        })
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || a.t.name.localeCompare(b.t.name))
        .slice(0, args.limit);
      return { tools: scored.map(({ t }) => declarationOf(t)) };
    },
  });
}

/**
 * tool_call: the deferred-tool bridge. The target call goes through the gateway again under its
 * own name, with the same caller, so every check applies to the target exactly as to a direct call.
 */
export function toolCallTool(opts: ControlToolOptions): ToolSpec<z.infer<typeof callInput>> {
  return controlTool(opts, {
    name: 'tool_call',
    description: 'Call a tool found with tool_search by name with its arguments.',
    inputSchema: callInput,
    timeoutMs: 30 * 60_000,
    async execute(args, ctx) {
      if (BRIDGE_TOOLS.has(args.name)) {
        throw new ControlToolError('agent.bridge_recursion', 'the bridge cannot call itself', {
          where: 'tool_call',
        });
      }
      const frame = callerFrame(ctx, 'tool_call');
      const inner = await invokeThroughGateway(
        frame,
        { name: args.name, arguments: args.arguments },
        ctx.signal,
      );
      return { tool: args.name, status: inner.status, content: inner.modelContent };
    },
  });
}
