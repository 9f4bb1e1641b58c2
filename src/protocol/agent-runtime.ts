import { userInfo } from 'node:os';
import { relative, resolve } from 'node:path';
import {
  canonicalToolName,
  compileRuleSet,
  type EngineStatePath,
  engineStatePaths,
  LiveRuleSet,
  loadAccessEnvironment,
  toolKindOf,
} from '../access/index.js';
import {
  type AgentEvent,
  AgentSession,
  createAccessPort,
  createControlTools,
  createProvider,
  DEFAULT_LIMITS,
  type McpConnection,
  McpServerSet,
  NoProviderError,
} from '../agent/index.js';
import {
  configSource,
  configuredStore,
  egressSettings,
  loadConfig,
  loadOfficeDomain,
  loadTools,
  prebuiltOfficeDomain,
  type TwinlineConfig,
} from '../config/index.js';
import { type Identity, TwinlineError } from '../core/index.js';
import { Egress, type EgressGate } from '../gates/index.js';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../gateway/index.js';
import { loadConfigPolicy, Pipeline, PROFILES } from '../pipeline/index.js';
import { declaredCapabilities } from '../policy/index.js';
import { ToolRegistry, type ToolSpec } from '../tools/index.js';
import {
  createWorkspaceTools,
  isWithin,
  ProcessSandbox,
  protectedPathCheck,
  resolveInWorkspace,
  rootsFor,
  sandboxOptionsFromEnv,
  secretPathCheck,
  sqliteStatePaths,
} from '../tools/workspace/index.js';
import { LazyStore } from './lazy-store.js';
import type { HostApprovalMode } from './permission-modes.js';
import { ReadCache, withReadCache } from './read-cache.js';
import type { EngineRuntime, RuntimeConfig, RuntimeTurn } from './runtime.js';
import { SessionControls } from './session-controls.js';

/** The `hooks` slot when the host registered no PreToolUse hook: no objection, nothing sent. */
const NO_TOOL_HOOKS = { beforeCall: async () => undefined };

/** The approver of the session: each turn points it at the host (or a deny-all). */
class TurnApprover implements Approver {
  current: Approver | undefined;
  request(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (!this.current) return Promise.resolve({ behavior: 'deny', message: 'no turn is running' });
    return this.current.request(req, signal);
  }
}

/**
 * `TWINLINE_CONFIG`, else `twinline.config.yaml` in the working directory, else the office domain
 * (the rule every door follows, `configSource`); the data folder from `TWINLINE_HOME` or beside it.
 */
function configFor(cwd: string, env: NodeJS.ProcessEnv): TwinlineConfig {
  const source = configSource(undefined, env, cwd);
  if (source.file) return loadConfig(source.file, { env });
  // the bundled CLI has the office domain loaded at build time: no YAML parse before the first turn
  return prebuiltOfficeDomain({ env }) ?? loadOfficeDomain({ env });
}

/**
 * Who the stream-json session acts for. `TWINLINE_USER` (and `TWINLINE_TENANT` when the name is
 * in several tenants) picks a user of the configuration (the `stream-json` profile); without it
 * the session runs as the local operator (the `host-session` profile): tenant `TWINLINE_TENANT` or
 * `local`, the OS user name, role `developer` (the workspace tools' role), data level L1. Never
 * taken from anything the host or the model sends; every slot of the pipeline applies either way.
 */
export function identityFor(config: TwinlineConfig, env: NodeJS.ProcessEnv): Identity {
  const user = env['TWINLINE_USER'];
  const tenant = env['TWINLINE_TENANT'] || undefined;
  if (user) {
    const matches = config.users.filter(
      (u) => u.user === user && (tenant === undefined || u.tenant === tenant),
    );
    if (matches.length === 1) return matches[0] as Identity;
    throw new TwinlineError(
      matches.length === 0 ? 'identity.unknown-user' : 'identity.ambiguous-user',
      matches.length === 0
        ? `unknown user ${JSON.stringify(user)}${tenant ? ` in tenant ${JSON.stringify(tenant)}` : ''}`
        : `user ${JSON.stringify(user)} exists in several tenants; set TWINLINE_TENANT`,
      { where: 'TWINLINE_USER' },
    );
  }
  let name = 'local';
  try {
    name = userInfo().username || 'local';
  } catch {
    // no passwd entry (containers): keep "local"
  }
  return { tenant: tenant ?? 'local', user: name, roles: ['developer'], dataLevel: 'L1', attributes: {} };
}

function workspaceTools(
  cwd: string,
  cache: ReadCache,
  confinement: {
    /** The engine's own state: never written, and its secret part never read. */
    readonly state: readonly EngineStatePath[];
    readonly sandbox?: ProcessSandbox | undefined;
  },
): ToolSpec[] {
  const options = {
    root: cwd,
    protectedWrite: protectedPathCheck(confinement.state),
    protectedRead: secretPathCheck(confinement.state),
    ...(confinement.sandbox ? { sandbox: confinement.sandbox } : {}),
  };
  return createWorkspaceTools(options).map((tool) =>
    tool.name === 'read_file'
      ? withReadCache(
          tool,
          cache,
          (path, callCwd) => resolveInWorkspace(path, rootsFor(options, { cwd: callCwd }), 'read_file'),
          (real, callCwd) => {
            const root = rootsFor(options, { cwd: callCwd }).root;
            return isWithin(root, real) ? relative(root, real) || '.' : real;
          },
        )
      : tool,
  );
}

/**
 * The tools of a stream-json session: the domain's, the workspace tools over `cwd` (their writes
 * refused on the engine's own state, their reads on its secret part, by `state`), and the control tools (sub-agents,
 * tasks, messages, plan mode, ask_user, the deferred-tool bridge and code mode) which every role
 * of the domain and the session's own may call; access decides per agent. `twinline check
 * --profile stream-json` builds the same set.
 */
export async function engineRegistry(
  domain: TwinlineConfig,
  identity: Identity,
  cwd: string,
  options: {
    cache?: ReadCache;
    /** The engine's own state (default: the project's and `cwd`'s `.twinline`). */
    state?: readonly EngineStatePath[];
    /** The process sandbox of `shell` (default: one from the environment, as the engine makes). */
    sandbox?: ProcessSandbox;
  } = {},
): Promise<ToolRegistry> {
  const registry = new ToolRegistry().registerAll(await loadTools(domain));
  const state = options.state ?? engineStatePaths({ projectRoot: cwd, home: cwd, files: [] });
  const sandbox = options.sandbox ?? new ProcessSandbox(sandboxOptionsFromEnv(process.env, [], state));
  for (const tool of workspaceTools(cwd, options.cache ?? new ReadCache(cwd), { state, sandbox })) {
    if (!registry.get(tool.name)) registry.register(tool);
  }
  const roles = [...new Set([...domain.users.flatMap((u) => u.roles), ...identity.roles])];
  for (const tool of createControlTools({ allowedRoles: roles })) {
    if (!registry.get(tool.name)) registry.register(tool);
  }
  return registry;
}

/** State files of the session outside `.twinline/`: a SQLite store configured elsewhere. */
function engineStateFiles(domain: TwinlineConfig, env: NodeJS.ProcessEnv): string[] {
  const store = configuredStore(domain, env);
  if ('sqliteFile' in store) return [store.sqliteFile];
  return /^postgres(ql)?:\/\//i.test(store.url) ? [] : [store.url.replace(/^(sqlite|file):(\/\/)?/i, '')];
}

/**
 * Connects the domain's configured MCP servers (`mcpServers`), as every other door does at start-up,
 * and registers their tools (`mcp__<server>__<tool>`); the caller closes the connections. Host-defined
 * (SDK) servers are the control protocol's, not these.
 */
async function connectConfiguredMcp(
  domain: TwinlineConfig,
  registry: ToolRegistry,
): Promise<McpConnection[]> {
  if (Object.keys(domain.mcpServers).length === 0) return [];
  const { importMcpServers } = await import('../runtime/configured-tools.js');
  const connections = await importMcpServers(domain);
  for (const tool of connections.flatMap((c) => c.tools)) {
    if (!registry.get(tool.name)) registry.register(tool);
  }
  return connections;
}

/** The `error` and `result` of a turn that could not start (no model configured). */
function failedTurn(sessionId: string, code: string, message: string, emit: (e: AgentEvent) => void): void {
  const source = { sessionId, agentId: 'main', agent: 'main', depth: 0 };
  emit({ ...source, type: 'error', code, message });
  emit({
    ...source,
    type: 'result',
    status: 'error',
    text: message,
    turns: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    durationMs: 0,
  });
}

/**
 * The stream-json engine's runtime: the configured domain's tools (office by default) plus the
 * workspace tools, one ToolGateway with the access and approval stages, and an `AgentSession`
 * whose `ask` verdicts go to the host.
 */
export async function createAgentRuntime(config: RuntimeConfig): Promise<EngineRuntime> {
  const domain = configFor(config.cwd, config.env);
  const cache = new ReadCache(config.cwd);
  // The engine's own state (settings, trust, agents, the audit database) no tool may write: the
  // access stage refuses it by path, the write tools again on the real path after symlinks.
  const home = config.env['HOME'] ?? config.cwd;
  // A managed (administrator) settings file: its rules bound what a host's "always allow" may add.
  const managedSettingsPath = config.env['TWINLINE_MANAGED_SETTINGS'] || undefined;
  const stateFiles = [
    ...engineStateFiles(domain, config.env),
    ...(managedSettingsPath ? [managedSettingsPath] : []),
  ];
  const state = engineStatePaths({
    projectRoot: config.cwd,
    home,
    files: stateFiles,
    folders: [domain.dataDir],
  });
  // The process sandbox of `shell` (docs/sandbox.md); the audit DB stays read-only to it wherever
  // the configuration puts it, and the secret state (audit DB, data folder) is hidden from it. No sandbox here means every shell call asks: say so once, now.
  const sandbox = new ProcessSandbox(
    sandboxOptionsFromEnv(
      config.env,
      domain.store.sqliteFile && domain.store.sqliteFile !== ':memory:'
        ? sqliteStatePaths(resolve(domain.store.sqliteFile))
        : [],
      state,
    ),
  );
  if (!sandbox.available()) config.log?.(`warning: ${sandbox.describe()}`);
  const identity = identityFor(domain, config.env);
  const registry = await engineRegistry(domain, identity, config.cwd, { cache, state, sandbox });
  const mcp = await connectConfiguredMcp(domain, registry);
  // The domain's policy, type-checked against every tool (the MCP servers' too): one that cannot
  // load stops the engine, with the servers it started closed first.
  let policy: ReturnType<typeof loadConfigPolicy>;
  try {
    policy = loadConfigPolicy(domain, registry.list());
  } catch (err) {
    await Promise.allSettled(mcp.map((c) => c.close()));
    throw err;
  }
  // Opened by the first audit record or review, never on the way to `system/init`.
  const store = new LazyStore(async () => {
    const { openStore } = await import('../store/index.js');
    return openStore({ ...configuredStore(domain, config.env), env: config.env });
  });
  // The domain's policy, parameter constraints, intent rules and field tags apply to the host's
  // session as to every other door; a session without a directory user is its own profile.
  const pipeline = new Pipeline({
    policy,
    audit: store.audit,
    reviews: store.reviews,
    approvalTimeoutMs: domain.approvalTimeoutMs,
    hooks: config.hooks?.tools ?? NO_TOOL_HOOKS,
  });
  const profile = PROFILES[config.env['TWINLINE_USER'] ? 'stream-json' : 'host-session'];
  const gateway = pipeline.gateway(profile, { tools: registry });
  // The folder's settings (user, project, local, managed; project levels only when trusted),
  // trust and agent definitions, plus the host's --allowedTools/--disallowedTools on top.
  const environment = loadAccessEnvironment({
    cwd: config.cwd,
    homeDir: home,
    ...(managedSettingsPath ? { managedSettingsPath } : {}),
  });
  // Live: a host's "always allow / deny" (updatedPermissions) adds session rules on top.
  const rules = new LiveRuleSet(
    compileRuleSet(
      [
        ...environment.settings.ruleSources,
        { source: 'command line', allow: config.allowedTools, deny: config.disallowedTools },
      ],
      { ...environment.roots, stateFiles, stateFolders: [domain.dataDir] },
    ),
  );
  const approver = new TurnApprover();
  const systemPrompt =
    [config.systemPrompt, config.appendSystemPrompt].filter(Boolean).join('\n\n') || undefined;
  let modelSpec = config.model;
  // the domain's model-service settings (timeouts, streaming) go with every model the host picks
  const modelFor = (spec: string | undefined) => ({
    ...(spec ? { model: spec } : {}),
    ...(domain.model ? { service: domain.model } : {}),
  });
  let session: AgentSession | undefined;
  let mode: HostApprovalMode = config.approvalMode;

  const ensureSession = (): AgentSession => {
    if (session) return session;
    const provider = createProvider(modelFor(modelSpec), config.env);
    session = new AgentSession({
      identity,
      provider,
      gateway,
      catalog: registry,
      access: createAccessPort({ rules }),
      sessionId: config.sessionId,
      cwd: config.cwd,
      approvalMode: mode,
      approver,
      domain: 'cli',
      definitions: environment.definitions,
      trustedFolder: environment.trusted,
      declareIntent: (prompt) => declaredCapabilities(prompt, registry.list()),
      ...(config.hooks?.agent ? { hooks: config.hooks.agent } : {}),
      ...(config.history ? { history: config.history } : {}),
      ...(systemPrompt ? { systemPrompt } : {}),
      ...(config.maxTurns !== undefined ? { limits: { maxTurns: config.maxTurns } } : {}),
    });
    return session;
  };
  try {
    ensureSession();
  } catch (err) {
    if (!(err instanceof NoProviderError)) throw err;
  }

  // The session's MCP servers: the host's in-process (SDK) ones now, others by mcp_set_servers.
  const servers = new McpServerSet(registry);
  const controls = new SessionControls({
    identity,
    sessionId: config.sessionId,
    cwd: config.cwd,
    environment,
    rules,
    audit: store.audit,
    registry,
    servers,
    bus: config.bus,
    session: () => session,
  });
  if (config.sdkMcpServers?.length) {
    controls.addSdkServers(config.sdkMcpServers, 30_000);
    // Listed before the first turn, so its tools are in the model's declarations.
    await servers.connectPending();
  }
  const startLimits = {
    maxTurns: config.maxTurns ?? DEFAULT_LIMITS.maxTurns,
  };

  // Built on first use (its key file is read or created then), for the session's identity.
  let output: EgressGate | undefined;

  const allTools = (): readonly string[] => {
    if (session) return [...session.tools];
    return registry.list().map((t) => t.name);
  };

  return {
    controls,
    startLimits: () => startLimits,
    canonicalTool: canonicalToolName,
    toolKind: (name) => registry.get(name)?.kind ?? toolKindOf(name),
    history: () => session?.history ?? [],
    toolNames: allTools,
    model: () => modelSpec ?? config.env['TWINLINE_MODEL'] ?? 'none',
    setApprovalMode(next) {
      // The session gates the mode (trust); only an accepted mode is kept.
      session?.setApprovalMode(next);
      mode = next;
    },
    async setModel(next) {
      modelSpec = next ?? config.model;
      if (session && modelSpec) session.setModel(createProvider(modelFor(modelSpec), config.env));
      return modelSpec ?? config.env['TWINLINE_MODEL'] ?? 'none';
    },
    seedReadState(files) {
      cache.seed(files);
    },
    output() {
      output ??= new Egress(egressSettings(domain, config.env)).for({
        viewer: identity,
        sessionId: config.sessionId,
        channel: config.channel ?? 'stream-json',
      });
      return output;
    },
    async run(turn: RuntimeTurn, emit: (event: AgentEvent) => void): Promise<void> {
      let s: AgentSession;
      try {
        s = ensureSession();
      } catch (err) {
        const e = err as { code?: string; message?: string };
        failedTurn(config.sessionId, e.code ?? 'agent.error', e.message ?? String(err), emit);
        return;
      }
      approver.current = turn.approver;
      mode = turn.approvalMode;
      s.setApprovalMode(turn.approvalMode);
      const off = s.on(emit);
      const onAbort = (): void => s.interrupt();
      try {
        const handle = s.run(turn.prompt, turn.context === undefined ? {} : { context: turn.context });
        if (turn.signal.aborted) handle.interrupt();
        else turn.signal.addEventListener('abort', onAbort, { once: true });
        await handle.result;
      } finally {
        off();
        turn.signal.removeEventListener('abort', onAbort);
        approver.current = undefined;
      }
    },
    async close() {
      await session?.close();
      await servers.close();
      await Promise.allSettled(mcp.map((c) => c.close()));
      await store.close();
    },
  };
}
