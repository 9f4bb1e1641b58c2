import { decide, type StageDecision } from '../core/index.js';
import {
  type CallContext,
  checkRbac,
  checkTenancy,
  type GatewayStage,
  type PreparedCall,
} from '../gateway/index.js';
import { BUILTIN_RULES, createPolicyStage, type PolicyEngine } from '../policy/index.js';
import type { ToolSpec } from '../tools/index.js';

/**
 * The `policy` slot when the configuration has policy files: tenancy first (the policy engine
 * knows roles and data levels, not which tenant a request is addressed to), then the engine.
 *
 * The engine's own tools (workspace, control, MCP imports: any kind but `domain`) are not what a
 * domain's policy files are written about. When no rule names such a tool or its category and the
 * engine only defaults to deny, its manifest (roles, data level) decides instead, and its approval
 * mode and permission rules decide next. A rule that names it, and any deny, still wins.
 */
export function policySlotStage(engine: PolicyEngine): GatewayStage {
  const policy = createPolicyStage(engine);
  const unnamed = new WeakMap<ToolSpec, boolean>();
  const namedByNoRule = (tool: ToolSpec): boolean => {
    let v = unnamed.get(tool);
    if (v === undefined) {
      v = !engine.rulesFor(tool.name, tool.permissions.category).some((r) => r.tools || r.categories);
      unnamed.set(tool, v);
    }
    return v;
  };
  return {
    name: 'policy',
    evaluate(call: PreparedCall, ctx: CallContext): StageDecision | Promise<StageDecision> {
      const tenancy = checkTenancy(call.tool, ctx);
      if (tenancy) return { ...tenancy, stage: 'policy' };
      const d = policy.evaluate(call, ctx) as StageDecision;
      if (
        d.ruleId !== BUILTIN_RULES.defaultDeny ||
        (call.tool.kind ?? 'domain') === 'domain' ||
        !namedByNoRule(call.tool)
      ) {
        return d;
      }
      const manifest = checkRbac(call.tool, ctx);
      return manifest.verdict === 'allow'
        ? decide(
            'allow',
            'policy',
            'manifest.engine-tool',
            `no policy rule names ${call.tool.name}; its manifest roles and data level allow the caller`,
          )
        : { ...manifest, stage: 'policy' };
    },
  };
}
