import {
  type AccessEnvironment,
  BUILTIN_TOOL_NAMES,
  buildAccessContext,
  loadAccessEnvironment,
} from '../../access/index.js';

export interface AgentsOptions {
  readonly json?: boolean;
  readonly cwd?: string;
  readonly home?: string;
  readonly managedSettings?: string;
}

/** One definition as `twinline agents` reports it. */
export interface AgentReport {
  readonly name: string;
  readonly description: string;
  readonly source: string;
  readonly path?: string;
  readonly mode: string;
  readonly background: boolean;
  readonly tools: readonly string[];
  readonly scopedDenyRules: readonly string[];
  readonly unknownTools: readonly string[];
  readonly ignoredEntries: readonly string[];
  readonly warnings: readonly string[];
}

/** Builds the report for a folder (also used by tests). Resolution is against the built-in tools. */
export function agentsReport(env: AccessEnvironment): {
  trusted: boolean;
  sessionMode: string;
  agents: AgentReport[];
  errors: { path: string; line: number; field?: string; message: string }[];
  ruleWarnings: readonly { rule: string; source: string; message: string }[];
  notices: readonly string[];
} {
  const base = {
    available: BUILTIN_TOOL_NAMES,
    settings: env.settings,
    roots: env.roots,
    trusted: env.trusted,
    rules: env.rules,
    definitions: env.definitions,
  };
  const main = buildAccessContext(base);
  const agents = env.definitions.map((def): AgentReport => {
    const ctx = buildAccessContext({ ...base, agentName: def.name, parent: main });
    return {
      name: def.name,
      description: def.description,
      source: def.source,
      ...(def.path !== undefined ? { path: def.path } : {}),
      mode: ctx.state.mode,
      background: ctx.state.background,
      tools: [...ctx.state.tools].sort(),
      scopedDenyRules: ctx.resolution.scopedDenyRules,
      unknownTools: ctx.resolution.unknownTools,
      ignoredEntries: ctx.resolution.ignoredEntries,
      warnings: def.warnings,
    };
  });
  return {
    trusted: env.trusted,
    sessionMode: main.state.mode,
    agents,
    errors: env.definitionErrors.map((e) => ({
      path: e.path,
      line: e.line,
      ...(e.field !== undefined ? { field: e.field } : {}),
      message: e.message,
    })),
    ruleWarnings: env.rules.warnings,
    notices: env.settings.notices,
  };
}

/** Prints the report; exit code 1 when any definition failed to load. */
export function runAgents(opts: AgentsOptions): number {
  const env = loadAccessEnvironment({
    cwd: opts.cwd ?? process.cwd(),
    ...(opts.home !== undefined ? { homeDir: opts.home } : {}),
    ...(opts.managedSettings !== undefined ? { managedSettingsPath: opts.managedSettings } : {}),
  });
  const report = agentsReport(env);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return report.errors.length > 0 ? 1 : 0;
  }
  const lines: string[] = [
    `folder ${env.roots.projectRoot}: ${report.trusted ? 'trusted' : 'not trusted'}; session mode ${report.sessionMode}`,
  ];
  for (const n of report.notices) lines.push(`note: ${n}`);
  if (report.agents.length === 0) lines.push('no agent definitions');
  for (const a of report.agents) {
    lines.push('');
    lines.push(`${a.name}  [${a.source}]  mode ${a.mode}${a.background ? '  background' : ''}`);
    lines.push(`  ${a.description}`);
    if (a.path) lines.push(`  ${a.path}`);
    lines.push(`  tools: ${a.tools.join(', ') || '(none)'}`);
    if (a.scopedDenyRules.length) lines.push(`  scoped deny: ${a.scopedDenyRules.join(', ')}`);
    if (a.unknownTools.length) lines.push(`  unknown tools: ${a.unknownTools.join(', ')}`);
    if (a.ignoredEntries.length) lines.push(`  ignored entries: ${a.ignoredEntries.join(', ')}`);
    for (const w of a.warnings) lines.push(`  warning: ${w}`);
  }
  for (const w of report.ruleWarnings) lines.push(`rule ignored: ${w.rule} (${w.source}): ${w.message}`);
  if (report.errors.length) {
    lines.push('', 'failed to load:');
    for (const e of report.errors) lines.push(`  ${e.message}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return report.errors.length > 0 ? 1 : 0;
}
