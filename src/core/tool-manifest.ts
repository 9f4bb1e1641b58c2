import type { z } from 'zod';
import type { DataLevel, Identity } from './identity.js';
import type { SandboxGrant, SandboxProfile } from './sandbox-grant.js';

export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/**
 * What kind of action a tool performs. Approval modes decide per kind (read, edit, shell, fetch,
 * MCP, agent); `control` covers ask-user, plan mode, tasks, messages; `domain` is a business tool.
 */
export const TOOL_KINDS = ['read', 'edit', 'shell', 'fetch', 'mcp', 'agent', 'control', 'domain'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/** MCP-style behaviour hints. These are declarations checked at registration, not trust. */
export interface ToolAnnotations {
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  readonly openWorld: boolean;
}

export interface ToolPermissions {
  /** Roles that may call the tool at all. Empty means no role may (e.g. `record_delete`). */
  readonly allowedRoles: readonly string[];
  /** The minimum data level of the caller. */
  readonly requiredDataLevel: DataLevel;
  /** Category that roles are granted in policy (e.g. `calendar`, `finance`, `hr`). */
  readonly category: string;
}

/**
 * How an output field is sensitive: `pii.phone`, `pii.email`, `pii.id`, `pii.name`,
 * `finance.amount`, `finance.account`, `hr.salary`, … The output gate maps each tag to
 * mask / hash / aggregate / drop according to the viewer's data level.
 */
export type FieldTag = string;

/**
 * What a call's permission rules are matched against, as the tool's manifest names it
 * (docs/access.md, "Permission rules"): the command line of a shell call, the path a file tool
 * touches (as written; resolved against the project roots), the host a fetch reaches, the type of
 * agent a spawn starts. A tool that names none is matched on its arguments (`Tool(key:value)`).
 */
export interface PermissionSubject {
  readonly kind: PermissionSubjectKind;
  readonly value: string;
}

/** See {@link PermissionSubject}. */
export type PermissionSubjectKind = 'command' | 'path' | 'host' | 'agentType';

declare const CALLER_HANDLE: unique symbol;

/**
 * Whoever issued a call, as the runtime that made the call knows it (an agent session: the
 * calling agent). Opaque to the gateway and to every tool: only the runtime that set it can read
 * it back, and only while the call runs (docs/agent.md, "Control tools").
 */
export interface CallerHandle {
  readonly [CALLER_HANDLE]: 'caller';
}

/** Context a tool's `execute` receives. Identity comes from trusted ingress, never from args. */
export interface ToolExecutionContext {
  readonly identity: Identity;
  readonly sessionId: string;
  readonly callId: string;
  /** Aborted on timeout, on interrupt, or when the parent agent is cancelled. */
  readonly signal: AbortSignal;
  /** The agent making the call (main agent when absent). */
  readonly agent?: AgentFrameRef;
  /** Idempotency key recorded before a side-effecting call (deep line); tools may use it to dedupe. */
  readonly idempotencyKey?: string;
  /** Working directory for workspace tools. */
  readonly cwd?: string;
  /**
   * The sandbox the approval granted this call (set by the gateway from the decision path, never
   * from arguments). A tool that starts processes runs them under it; absent means `read-only`.
   */
  readonly sandbox?: SandboxGrant;
  /** Tells the gateway which profile the call's processes actually ran under (for the audit). */
  readonly reportSandbox?: (profile: SandboxProfile) => void;
  /** The caller the runtime named in the call's context (`CallContext.caller`), passed through. */
  readonly caller?: CallerHandle;
}

/**
 * How a tool that starts processes confines them. The approval stage reads it: where no sandbox
 * can be created every call asks first (denied in plan mode and in background agents).
 */
export interface ProcessSandboxPort {
  /** True when a sandbox can be created here (probed once, then cached). */
  available(): boolean;
  /** One line for start-up warnings and `twinline doctor`. */
  describe(): string;
}

/** A minimal view of the calling agent, for context-aware tools (e.g. ask_user refusing background callers). */
export interface AgentFrameRef {
  readonly name: string;
  readonly depth: number;
  readonly background: boolean;
  readonly teammate: boolean;
}

/**
 * A tool manifest in the MCP style plus Twinline's security declarations. Registration validates
 * it (see `ToolRegistry`); every call to `execute` goes through the `ToolGateway`.
 */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of many argument types.
export interface ToolSpec<I = any, O = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<I>;
  readonly annotations: ToolAnnotations;
  readonly riskLevel: RiskLevel;
  readonly permissions: ToolPermissions;
  readonly requiresReview: boolean;
  readonly timeoutMs: number;
  /** Output field path (dotted, `[]` for array items, e.g. `customers[].phone`) → tag. */
  readonly fieldTags?: Readonly<Record<string, FieldTag>>;
  /**
   * Argument field path → tag, like `fieldTags` for the output: how the audit's decision log
   * redacts the arguments it keeps (docs/operations.md, "Decision log"). `fieldTags` paths that
   * also occur in the arguments apply there too.
   */
  readonly argumentTags?: Readonly<Record<string, FieldTag>>;
  /** Output field paths that carry free text from outside (pages, documents, emails): quoted as data. */
  readonly thirdPartyFields?: readonly string[];
  /** Result cache lifetime for read-only tools (quick line). */
  readonly cacheTtlMs?: number;
  /**
   * Words in the user's own request that show they asked for this high-risk capability (any
   * language). A plan may declare the tool only when the request contains one: the model cannot
   * grant itself a capability the user never mentioned.
   */
  readonly intentKeywords?: readonly string[];
  /** Safe to run in parallel with other concurrency-safe calls of the same turn. */
  readonly concurrencySafe?: boolean;
  /** Kind of action, for approval modes. Defaults to `domain`. */
  readonly kind?: ToolKind;
  /** Data a write tool touches, so the quick-line cache can invalidate reads of the same data. */
  readonly dataScopes?: readonly string[];
  /** Tenants this tool serves; absent means every tenant. The gateway denies callers from others. */
  readonly tenants?: readonly string[];
  /** Tools that start processes (`shell`): how those processes are confined. */
  readonly sandbox?: ProcessSandboxPort;
  /**
   * The subject permission rules match for a call (see {@link PermissionSubject}), from the raw
   * arguments: it runs before the schema does, so it must accept anything. Undefined: the rules
   * match the arguments themselves.
   */
  readonly permissionSubject?: (args: unknown) => PermissionSubject | undefined;
  readonly execute: (args: I, ctx: ToolExecutionContext) => Promise<O>;
}
