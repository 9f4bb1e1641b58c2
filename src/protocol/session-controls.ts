import {
  type AccessEnvironment,
  compileRuleSet,
  type LiveRuleSet,
  type PermissionUpdate,
  type PlannedUpdate,
  planPermissionUpdate,
  writeSettingsMode,
  writeSettingsRules,
} from '../access/index.js';
import {
  type AgentSession,
  connectMcpServer,
  importMcpTools,
  type McpServerSet,
  type McpServerStatus,
} from '../agent/index.js';
import { decide, hashCanonical, type Identity, uuidV7 } from '../core/index.js';
import type { AuditSink } from '../store/index.js';
import type { ToolRegistry } from '../tools/index.js';
import type { ControlBus } from './control-bus.js';
import type { RunCeilings, RunParameters } from './run-variables.js';
import { toolFilterOf } from './run-variables.js';
import { SdkMcpRpc } from './sdk-mcp.js';

/** One permission update and what became of it (applied, persisted where, or refused and why). */
export interface PermissionUpdateOutcome {
  readonly update: string;
  readonly applied: boolean;
  /** The settings file written, when the destination was one. */
  readonly persisted?: string;
  /** A mode the session should now run in (the engine applies it through its trust-gated path). */
  readonly mode?: { readonly name: string; readonly persistedOnly: boolean };
  readonly reason?: string;
}

/** A control action as the audit records it. */
export interface ControlAuditEntry {
  readonly action: string;
  readonly requestId: string;
  readonly allowed: boolean;
  readonly reason: string;
  readonly summary: string;
  readonly detail: unknown;
}

export interface SessionControlsDeps {
  readonly identity: Identity;
  readonly sessionId: string;
  readonly cwd: string;
  readonly environment: AccessEnvironment;
  readonly rules: LiveRuleSet;
  readonly audit: AuditSink;
  readonly registry: ToolRegistry;
  readonly servers: McpServerSet;
  readonly bus: ControlBus | undefined;
  readonly session: () => AgentSession | undefined;
}

const SESSION_RULES_SOURCE = 'session (host)';

function describe(u: PermissionUpdate): string {
  switch (u.type) {
    case 'setMode':
      return `setMode ${u.mode} → ${u.destination}`;
    case 'addDirectories':
    case 'removeDirectories':
      return `${u.type} ${u.directories.join(', ')} → ${u.destination}`;
    default:
      return `${u.type} ${u.behavior} ${u.rules.map((r) => (r.ruleContent ? `${r.toolName}(${r.ruleContent})` : r.toolName)).join(', ')} → ${u.destination}`;
  }
}

/**
 * What a host may change in a running session besides the model and the mode: run parameters,
 * permission rules ("always allow" from a prompt), its MCP servers, background tasks. Every change
 * is audited here; the protocol engine announces it.
 */
export class SessionControls {
  constructor(private readonly deps: SessionControlsDeps) {}

  /** The session's MCP servers (SDK, host-set and any configured ones registered here). */
  get servers(): McpServerSet {
    return this.deps.servers;
  }

  /** The limits and tool set updates must stay within. */
  ceilings(start: { maxTurns: number; maxTokens?: number; maxCostUsd?: number }): RunCeilings {
    const s = this.deps.session();
    const provider = s?.model ?? 'none';
    return {
      maxTurns: start.maxTurns,
      maxTokens: start.maxTokens,
      maxCostUsd: start.maxCostUsd,
      tools: s ? s.grantedTools() : new Set(this.deps.registry.list().map((t) => t.name)),
      reportsCost: s?.reportsCost ?? false,
      provider,
    };
  }

  /** Applies run parameters to the session: limits now (the running turn too), the tool filter now. */
  applyRunParameters(p: RunParameters): void {
    const s = this.deps.session();
    if (!s) return;
    s.setLimits({
      maxTurns: p.maxTurns,
      ...(p.maxTokens === undefined ? { maxTokens: undefined } : { maxTokens: p.maxTokens }),
      ...(p.maxCostUsd === undefined ? { maxCostUsd: undefined } : { maxCostUsd: p.maxCostUsd }),
    } as Parameters<AgentSession['setLimits']>[0]);
    s.restrictTools(toolFilterOf(p));
  }

  /**
   * Applies a host's `updatedPermissions`: each is planned against trust and the managed level
   * (`planPermissionUpdate`), then kept in the session and, for a settings destination, written
   * to that file by the engine itself. A refused update changes nothing and says why.
   */
  applyPermissionUpdates(updates: readonly PermissionUpdate[], requestId: string): PermissionUpdateOutcome[] {
    const env = this.deps.environment;
    const managedLayers = env.layers.filter((l) => l.level === 'managed');
    const managed =
      managedLayers.length > 0
        ? compileRuleSet(
            managedLayers.map((l) => ({
              source: l.path,
              allow: l.settings.permissions?.allow ?? [],
              ask: l.settings.permissions?.ask ?? [],
              deny: l.settings.permissions?.deny ?? [],
            })),
            env.roots,
          )
        : undefined;
    const ctx = {
      trusted: env.trusted,
      folder: this.deps.cwd,
      managed,
      managedOnly: managedLayers.some((l) => l.settings.allowManagedPermissionRulesOnly === true),
    };
    return updates.map((u) => {
      const plan = planPermissionUpdate(u, ctx);
      const outcome = this.#apply(plan, describe(u));
      this.record({
        action: 'permission_update',
        requestId,
        allowed: outcome.applied,
        reason:
          outcome.reason ?? (outcome.persisted ? `written to ${outcome.persisted}` : 'kept for the session'),
        summary: outcome.update,
        detail: u,
      });
      return outcome;
    });
  }

  #pathOf(level: 'local' | 'project' | 'user'): string {
    return this.deps.environment.paths[level];
  }

  #apply(plan: PlannedUpdate, what: string): PermissionUpdateOutcome {
    if (plan.kind === 'refused') return { update: what, applied: false, reason: plan.reason };
    try {
      if (plan.kind === 'mode') {
        const path = plan.level ? this.#pathOf(plan.level) : undefined;
        if (path) writeSettingsMode(path, plan.name);
        // A mode written to settings is the start mode of later sessions; this one changes too
        // only for the session destination (as the host asked).
        return {
          update: what,
          applied: true,
          ...(path ? { persisted: path } : {}),
          mode: { name: plan.name, persistedOnly: path !== undefined },
        };
      }
      const rules = this.deps.rules;
      const path = plan.level ? this.#pathOf(plan.level) : undefined;
      if (path) writeSettingsRules(path, plan.effect, plan.rules, plan.op);
      if (plan.op === 'remove') rules.remove(plan.effect, plan.rules);
      else {
        if (plan.op === 'replace')
          rules.remove(
            plan.effect,
            rules.sessionSources.flatMap((s) => s[plan.effect] ?? []),
          );
        const warnings = rules.add({ source: path ?? SESSION_RULES_SOURCE, [plan.effect]: plan.rules });
        if (warnings.length > 0) return { update: what, applied: false, reason: warnings.join('; ') };
      }
      return { update: what, applied: true, ...(path ? { persisted: path } : {}) };
    } catch (err) {
      return { update: what, applied: false, reason: err instanceof Error ? err.message : String(err) };
    }
  }

  /** Stops a background agent of the session by its task id. */
  stopTask(taskId: string): boolean {
    return this.deps.session()?.stopTask(taskId) ?? false;
  }

  // ------------------------------------------------------------------ MCP servers

  /** Registers the host's in-process (SDK) servers; they connect over `mcp_message`. */
  addSdkServers(names: readonly string[], timeoutMs: number): void {
    const bus = this.deps.bus;
    if (!bus) return;
    for (const name of names) {
      if (this.deps.servers.has(name)) continue;
      this.deps.servers.add(name, 'sdk', async () => ({
        tools: await importMcpTools(name, new SdkMcpRpc(bus, name), this.#policy(), { timeoutMs }),
        close: async () => {},
      }));
    }
  }

  #policy() {
    // The host defines these tools for its own session: they may be called by the session's own
    // roles, at the lowest data level; annotations decide risk (no hint → the approval slot asks).
    return { allowedRoles: this.deps.identity.roles, requiredDataLevel: 'L1' as const, timeoutMs: 60_000 };
  }

  mcpStatus(): McpServerStatus[] {
    return this.deps.servers.status();
  }

  /**
   * `mcp_set_servers`: the host's dynamic set (SDK servers and server configs it sent) becomes
   * exactly `servers`; configured servers are left alone. A config with `command` is started as
   * a child process, one with `url` reached over streamable HTTP; their tools pass the gateway like
   * any MCP import.
   */
  async setServers(
    servers: Record<string, unknown>,
  ): Promise<{ added: string[]; removed: string[]; errors: Record<string, string> }> {
    const set = this.deps.servers;
    const added: string[] = [];
    const removed: string[] = [];
    const errors: Record<string, string> = {};
    const dynamic = [...set.names('host'), ...set.names('sdk')];
    for (const name of dynamic) {
      if (!Object.hasOwn(servers, name)) {
        await set.remove(name);
        removed.push(name);
      }
    }
    for (const [name, raw] of Object.entries(servers)) {
      if (set.has(name)) continue;
      const problem = this.#addHostServer(name, raw);
      if (problem) errors[name] = problem;
      else added.push(name);
    }
    await set.connectPending();
    for (const s of set.status())
      if (added.includes(s.name) && s.status === 'failed') errors[s.name] = s.error ?? 'failed';
    return { added: added.filter((n) => !errors[n]), removed, errors };
  }

  #addHostServer(name: string, raw: unknown): string | undefined {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) return 'server names are [A-Za-z0-9_-]{1,64}';
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      return 'a server config must be an object';
    const c = raw as Record<string, unknown>;
    if (c['type'] === 'sdk') {
      if (!this.deps.bus) return 'no host channel for an SDK server';
      this.addSdkServers([name], 30_000);
      return undefined;
    }
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
    const record = (v: unknown): v is Record<string, string> =>
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      Object.values(v).every((x) => typeof x === 'string');
    if (typeof c['command'] === 'string' && c['command']) {
      if (c['args'] !== undefined && !strings(c['args'])) return 'args must be a list of strings';
      if (c['env'] !== undefined && !record(c['env'])) return 'env must map names to strings';
      const config = {
        name,
        command: c['command'] as string,
        ...(c['args'] ? { args: c['args'] as string[] } : {}),
        ...(c['env'] ? { env: c['env'] as Record<string, string> } : {}),
        cwd: this.deps.cwd,
        ...this.#policy(),
      };
      this.deps.servers.add(name, 'host', () => connectMcpServer(config));
      return undefined;
    }
    if (typeof c['url'] === 'string' && /^https?:\/\//.test(c['url'])) {
      if (c['headers'] !== undefined && !record(c['headers'])) return 'headers must map names to strings';
      const config = {
        name,
        url: c['url'] as string,
        ...(c['headers'] ? { headers: c['headers'] as Record<string, string> } : {}),
        ...this.#policy(),
      };
      this.deps.servers.add(name, 'host', () => connectMcpServer(config));
      return undefined;
    }
    return 'a server config needs type "sdk", a command, or an http(s) url';
  }

  // ------------------------------------------------------------------ audit

  /** One audit record for a control action (tool `control.<action>`, status executed or denied). */
  record(entry: ControlAuditEntry): void {
    const time = new Date();
    let argsHash = 'unhashable';
    try {
      argsHash = hashCanonical(entry.detail ?? null);
    } catch {
      // keep 'unhashable'
    }
    try {
      this.deps.audit.record({
        id: uuidV7(time.getTime()),
        time: time.toISOString(),
        tenant: this.deps.identity.tenant,
        user: this.deps.identity.user,
        sessionId: this.deps.sessionId,
        agent: 'host',
        domain: 'cli',
        tool: `control.${entry.action}`,
        callId: entry.requestId,
        argsHash,
        status: entry.allowed ? 'executed' : 'denied',
        decisionPath: [
          decide(
            entry.allowed ? 'allow' : 'deny',
            'control',
            `control.${entry.action}`,
            entry.reason.slice(0, 500),
          ),
        ],
        resultSummary: entry.summary.slice(0, 300),
        durationMs: 0,
      });
    } catch {
      // an audit sink must not throw; if one does, the change still stands as decided
    }
  }
}
