import { z } from 'zod';
import { TwinlineError } from '../../core/index.js';
import type { RiskLevel, ToolExecutionContext, ToolSpec } from '../../tools/index.js';

/** A tool as an MCP server lists it. Nothing in it is trusted: annotations are hints. */
export interface McpToolListing {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Record<string, unknown>;
  readonly annotations?: {
    readonly readOnlyHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly openWorldHint?: boolean;
  };
}

/** Who may call an imported server's tools, and how. Set by the operator, never by the server. */
export interface McpImportPolicy {
  readonly allowedRoles: readonly string[];
  readonly category?: string;
  readonly requiredDataLevel?: ToolSpec['permissions']['requiredDataLevel'];
  readonly timeoutMs?: number;
}

/** A tool call failed on the MCP server (`isError`), or the server answered nonsense. */
export class McpToolError extends TwinlineError {}

/** `mcp__server__tool`, with anything outside `[A-Za-z0-9_-]` replaced so the name registers. */
export function mcpToolName(server: string, tool: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');
  return `mcp__${clean(server)}__${clean(tool)}`.slice(0, 64);
}

/**
 * Risk and annotations of an imported tool, pure. Hints can only make a tool look more dangerous,
 * never safer than the conservative default: no hint → medium risk, not read-only; a destructive
 * hint → high risk with review (even if it also claims read-only).
 */
export function mcpRisk(listing: McpToolListing): {
  riskLevel: RiskLevel;
  requiresReview: boolean;
  annotations: ToolSpec['annotations'];
} {
  const a = listing.annotations ?? {};
  const destructive = a.destructiveHint === true;
  const readOnly = a.readOnlyHint === true && !destructive;
  return {
    riskLevel: destructive ? 'high' : readOnly ? 'low' : 'medium',
    requiresReview: destructive,
    annotations: {
      readOnly,
      destructive,
      idempotent: a.idempotentHint === true,
      openWorld: a.openWorldHint !== false,
    },
  };
}

/** The input schema as zod, so the gateway's schema stage validates arguments before the server sees them. */
function inputSchemaOf(listing: McpToolListing): z.ZodType {
  const schema = listing.inputSchema ?? { type: 'object' };
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    // A schema zod cannot read still gets an object check; the server validates the rest.
    return z.record(z.string(), z.unknown());
  }
}

/**
 * The manifest of one imported tool. Its output is third-party text: `text` is declared a
 * third-party field so the result stages quote it as data.
 */
export function mcpToolSpec(
  server: string,
  listing: McpToolListing,
  policy: McpImportPolicy,
  call: (args: unknown, ctx: ToolExecutionContext) => Promise<{ text: string; structured?: unknown }>,
): ToolSpec {
  const risk = mcpRisk(listing);
  return {
    name: mcpToolName(server, listing.name),
    description: `[MCP ${server}] ${listing.description ?? listing.name}`.slice(0, 1000),
    inputSchema: inputSchemaOf(listing),
    annotations: risk.annotations,
    riskLevel: risk.riskLevel,
    permissions: {
      allowedRoles: policy.allowedRoles,
      requiredDataLevel: policy.requiredDataLevel ?? 'L1',
      category: policy.category ?? `mcp:${server}`,
    },
    requiresReview: risk.requiresReview,
    timeoutMs: policy.timeoutMs ?? 30_000,
    kind: 'mcp',
    thirdPartyFields: ['text'],
    execute: call,
  };
}
