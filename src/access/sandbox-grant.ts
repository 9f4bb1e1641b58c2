import { decide, type SandboxGrant, type StageDecision } from '../core/index.js';
import type { ApprovalMode } from './approval-mode.js';
import type { CompiledRuleSet } from './rule-set.js';

/** The domains web permission rules allow and deny, for the sandbox's egress proxy. */
export interface NetworkAllowance {
  readonly allowed: readonly string[];
  readonly denied: readonly string[];
}

const NO_NETWORK: NetworkAllowance = Object.freeze({ allowed: [], denied: [] });
const memo = new WeakMap<CompiledRuleSet, NetworkAllowance>();

/**
 * What the rules let a sandboxed command reach: `web_fetch(domain:x)` allow rules name domains, a
 * whole-tool `web_fetch` allow means any public host (`*`); domain deny rules stay refused, and a
 * whole-tool deny means no network at all. Pure; memoised per rule set.
 */
export function networkAllowanceOf(rules: CompiledRuleSet): NetworkAllowance {
  const hit = memo.get(rules);
  if (hit) return hit;
  const web = rules.rulesFor('web_fetch');
  let out: NetworkAllowance = NO_NETWORK;
  if (!web.deny.some((r) => r.specifier === undefined)) {
    const domain = (spec: string) =>
      spec
        .replace(/^domain:/i, '')
        .replace(/^\*\./, '')
        .toLowerCase();
    const allowed = web.allow.map((r) => (r.specifier === undefined ? '*' : domain(r.specifier)));
    const denied = web.deny.filter((r) => r.specifier !== undefined).map((r) => domain(r.specifier!));
    if (allowed.length > 0) out = { allowed: [...new Set(allowed)], denied: [...new Set(denied)] };
  }
  memo.set(rules, out);
  return out;
}

/** The sandbox-related facts of one shell call, as the approval stage knows them. */
export interface ShellSandboxInput {
  readonly mode: ApprovalMode;
  /** The line only reads (rule-based analysis, see shell-risk.ts). */
  readonly readOnly: boolean;
  /** The tool can create a sandbox here (its manifest's `sandbox` port). */
  readonly sandboxed: boolean;
  readonly background: boolean;
  readonly network: NetworkAllowance;
}

/**
 * Puts the sandbox profile on a shell call's approval decision, following the approval (pure):
 * a call that runs without an ask and only reads gets `read-only`; one that a rule or the mode
 * allows although it writes, or that a person approves, gets `workspace-write` — or `network`
 * when web rules allow domains (never in plan mode). Where no sandbox can be created, every call
 * that is not denied asks to run `unconfined` instead — and plan mode and background agents,
 * which cannot ask, deny it.
 */
export function withShellSandbox(d: StageDecision, input: ShellSandboxInput): StageDecision {
  if (d.verdict === 'deny' || d.verdict === 'review') return d;
  if (!input.sandboxed) {
    if (input.mode === 'plan' || (input.background && input.mode !== 'bubble')) {
      return decide(
        'deny',
        d.stage,
        'sandbox.unavailable',
        `No sandbox can be created here, so ${input.mode === 'plan' ? 'plan mode' : 'a background agent'} cannot run shell commands (a person would have to approve each one).`,
      );
    }
    return decide(
      'ask',
      d.stage,
      'sandbox.unavailable',
      'No sandbox can be created here: approve only if this command may run unconfined, with your full access.',
      { ...(d.details ? { details: d.details } : {}), sandbox: { profile: 'unconfined' } },
    );
  }
  const writes = d.verdict === 'ask' || !input.readOnly;
  let grant: SandboxGrant = { profile: writes ? 'workspace-write' : 'read-only' };
  if (writes && input.mode !== 'plan' && input.network.allowed.length > 0) {
    grant = {
      profile: 'network',
      allowedDomains: input.network.allowed,
      deniedDomains: input.network.denied,
    };
  }
  return { ...d, sandbox: grant };
}
