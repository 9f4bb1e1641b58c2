/**
 * Access-layer benchmark: 500 tools, 50 agents, 2,000 permission rules. Measures rule
 * compilation, per-agent tool resolution, and the per-call check (access stage + approval
 * decision, which is what the gateway runs for every call). Prints one JSON object.
 */
import { loadavg } from 'node:os';
import {
  type AccessState,
  approvalFor,
  BUILTIN_TOOL_NAMES,
  checkAccess,
  compileRuleSet,
  extendRuleSet,
  type PathRoots,
  resolveAgentTools,
} from '../src/access/index.js';
import { createControlTools } from '../src/agent/index.js';
import { createWorkspaceTools } from '../src/tools/workspace/index.js';

/** The shipped manifests, which name each call's permission subject. */
const SPECS = new Map(
  [...createWorkspaceTools(), ...createControlTools({ allowedRoles: ['developer'] })].map((s) => [s.name, s]),
);
const specOf = (name: string) => SPECS.get(name);

const ROOTS: PathRoots = { projectRoot: '/proj', cwd: '/proj', home: '/home/u' };
let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

// 500 tools: built-ins, 300 MCP tools over 30 servers, the rest domain tools.
const tools: string[] = [...BUILTIN_TOOL_NAMES];
for (let s = 0; s < 30; s++) for (let t = 0; t < 10; t++) tools.push(`mcp__srv${s}__op${t}`);
while (tools.length < 500) tools.push(`domain_tool_${tools.length}`);

// 2,000 rules across the three effects and every specifier kind.
const words = ['git', 'npm', 'make', 'docker', 'kubectl', 'cargo', 'python', 'node', 'curl', 'rm'];
const rules: Record<'allow' | 'ask' | 'deny', string[]> = { allow: [], ask: [], deny: [] };
for (let i = 0; i < 2000; i++) {
  const effect = pick(['allow', 'allow', 'ask', 'deny'] as const);
  const k = i % 8;
  const rule =
    k === 0
      ? `Bash(${pick(words)} sub${i}:*)`
      : k === 1
        ? `Bash(${pick(words)} *arg${i}*)`
        : k === 2
          ? `Read(./dir${i}/**)`
          : k === 3
            ? `Edit(src/mod${i}/**)`
            : k === 4
              ? `mcp__srv${i % 30}__op${i % 10}`
              : k === 5
                ? `WebFetch(domain:site${i}.example.com)`
                : k === 6
                  ? `domain_tool_${300 + (i % 170)}(region:r${i % 7})`
                  : `Agent(type${i})`;
  rules[effect].push(rule);
}

const t0 = performance.now();
const ruleSet = compileRuleSet([{ source: 'bench', ...rules }], ROOTS);
const compileMs = performance.now() - t0;

// 50 agents: a main agent and nested chains with random definitions.
const main = resolveAgentTools({ available: tools, rules: ruleSet });
const states: AccessState[] = [];
const resolveTimes: number[] = [];
let parent = main;
let firstResolveMs = 0;
// Two passes over the same 50 agents: the first pays JIT warm-up (reported as cold), the second is measured.
for (let a = 0; a < 100; a++) {
  if (a === 50) {
    states.length = 0;
    resolveTimes.length = 0;
    seed = 7;
  }
  const depth = (a % 5) + 1;
  if (depth === 1) parent = main;
  const listed =
    rand() < 0.3
      ? undefined
      : [
          ...Array.from({ length: 20 }, () => pick([...tools, 'mcp__srv1', 'mcp__srv2__op*', '*'])),
          ...(a % 2 === 0 ? ['shell', 'read_file', 'edit'] : []),
        ];
  const def = {
    name: `agent${a}`,
    ...(listed ? { tools: listed } : {}),
    disallowedTools: [pick(tools), 'Bash(rm -rf *)', pick(['mcp__srv3', 'web_fetch'])],
  };
  const s = performance.now();
  const res = resolveAgentTools({
    available: tools,
    parent,
    position: { depth, background: a % 3 === 0, teammate: a % 7 === 0 },
    definition: def,
    rules: ruleSet,
  });
  const agentRules = extendRuleSet(ruleSet, [{ source: def.name, deny: res.scopedDenyRules }]);
  resolveTimes.push((performance.now() - s) * 1000);
  if (a === 0) firstResolveMs = performance.now() - s;
  states.push({
    agentName: def.name,
    tools: res.allowed,
    rules: agentRules,
    mode: pick(['default', 'auto-edit', 'auto', 'plan'] as const),
    background: a % 3 === 0,
    depth,
  });
  parent = res;
}

// Calls: a realistic mix, half against tools the agent has.
// Every command line is distinct (random ids), so no cache makes the shell numbers look better.
const commands = [
  (n: number) => `git status ${n}`,
  (n: number) => `git sub${n % 2000} --x && npm test -- ${n} | head`,
  (n: number) => `ls -la dir${n}; cat README${n}.md`,
  (n: number) => `rm -rf build${n}`,
  (n: number) => `make t${n} && docker build . > /dev/null`,
  (n: number) => `echo $(git rev-parse HEAD~${n}) > out${n}.txt`,
  (n: number) => `FOO=${n} timeout 5 kubectl get pods -l app=a${n} | grep Running | wc -l`,
];
const withShell = states.filter((s) => s.tools.has('shell'));
let serial = 0;
function makeCall(): { state: AccessState; name: string; args: unknown } {
  const r = rand();
  const state = r < 0.3 && withShell.length > 0 ? pick(withShell) : pick(states);
  const name =
    r < 0.3 && withShell.length > 0
      ? 'shell'
      : rand() < 0.5 && state.tools.size > 0
        ? pick([...state.tools])
        : pick(['shell', 'read_file', 'edit', 'web_fetch', ...tools.slice(-50)]);
  serial++;
  const args =
    name === 'shell'
      ? { command: pick(commands)(serial) }
      : name === 'read_file' || name === 'edit' || name === 'write_file'
        ? {
            file_path: pick([
              `src/mod3/a${serial}.ts`,
              `dir17/x${serial}`,
              '.env',
              `docs/README${serial}.md`,
            ]),
          }
        : name === 'web_fetch'
          ? { url: `https://site${Math.floor(rand() * 2000)}.example.com/x` }
          : { region: `r${Math.floor(rand() * 7)}` };
  return { state, name, args };
}
const calls = Array.from({ length: 20_000 }, makeCall);
const shellShare =
  calls.filter((c) => c.name === 'shell' && c.state.tools.has('shell')).length / calls.length;
const check = (c: (typeof calls)[number]) => {
  const d = checkAccess(c.state, c.name, c.args, specOf);
  return d.verdict === 'allow'
    ? approvalFor(c.state, c.name, c.args, undefined, false, specOf(c.name)?.permissionSubject?.(c.args))
    : d;
};
// Warm-up on a separate batch (JIT, per-tool rule index); the measured calls are all new lines.
for (const c of Array.from({ length: 20_000 }, makeCall)) check(c);
const samples: number[] = [];
let sink = 0;
for (let round = 0; round < 1; round++) {
  for (const c of calls) {
    const s = process.hrtime.bigint();
    const d = check(c);
    samples.push(Number(process.hrtime.bigint() - s) / 1000);
    sink += d.verdict.length;
  }
}
const q = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2));
};
const isShellRun = (i: number) => {
  const c = calls[i % calls.length]!;
  return c.name === 'shell' && c.state.tools.has('shell');
};
const shellSamples = samples.filter((_, i) => isShellRun(i));
const otherSamples = samples.filter((_, i) => !isShellRun(i));
process.stdout.write(
  `${JSON.stringify({
    tools: tools.length,
    agents: states.length,
    rules: ruleSet.rules.length,
    ruleWarnings: ruleSet.warnings.length,
    compileRulesMs: Number(compileMs.toFixed(2)),
    resolveAgentUs: { p50: q(resolveTimes, 0.5), p99: q(resolveTimes, 0.99) },
    firstResolveColdMs: Number(firstResolveMs.toFixed(2)),
    callCheckUs: { p50: q(samples, 0.5), p99: q(samples, 0.99), max: q(samples, 1), n: samples.length },
    shellCallCheckUs: { p50: q(shellSamples, 0.5), p99: q(shellSamples, 0.99), n: shellSamples.length },
    shellShare: Number(shellShare.toFixed(2)),
    otherCallCheckUs: { p50: q(otherSamples, 0.5), p99: q(otherSamples, 0.99), n: otherSamples.length },
    // Timing on a shared machine: a high load average inflates the tail.
    loadAvg1m: Number(loadavg()[0]!.toFixed(1)),
    targetP99Us: 20,
    sink: sink > 0,
  })}\n`,
);
