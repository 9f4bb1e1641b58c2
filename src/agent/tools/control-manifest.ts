import type { z } from 'zod';
import type { PermissionSubject, ToolExecutionContext, ToolKind, ToolSpec } from '../../tools/index.js';

/** Who may call control tools, and their policy category. Set by the application (its roles). */
export interface ControlToolOptions {
  /** Roles allowed to use control tools; normally every role of the domain. */
  readonly allowedRoles: readonly string[];
  readonly category?: string;
}

/**
 * A control tool's manifest: low risk, L1, not destructive. What these tools may do is decided
 * by the access layer (which agents see them) and by checks inside them (who is calling).
 */
export function controlTool<I>(
  opts: ControlToolOptions,
  def: {
    name: string;
    description: string;
    inputSchema: z.ZodType<I>;
    execute: (args: I, ctx: ToolExecutionContext) => Promise<unknown>;
    readOnly?: boolean;
    timeoutMs?: number;
    kind?: ToolKind;
    concurrencySafe?: boolean;
    riskLevel?: 'low' | 'medium';
    permissionSubject?: (args: unknown) => PermissionSubject | undefined;
  },
): ToolSpec<I> {
  return {
    name: def.name,
    description: def.description,
    inputSchema: def.inputSchema,
    annotations: {
      readOnly: def.readOnly ?? false,
      destructive: false,
      idempotent: def.readOnly ?? false,
      openWorld: false,
    },
    riskLevel: def.riskLevel ?? 'low',
    permissions: {
      allowedRoles: opts.allowedRoles,
      requiredDataLevel: 'L1',
      category: opts.category ?? 'agent-control',
    },
    requiresReview: false,
    timeoutMs: def.timeoutMs ?? 30_000,
    kind: def.kind ?? 'control',
    ...(def.concurrencySafe ? { concurrencySafe: true } : {}),
    ...(def.permissionSubject ? { permissionSubject: def.permissionSubject } : {}),
    execute: def.execute,
  };
}
