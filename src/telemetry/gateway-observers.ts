import {
  type CallContext,
  type CallObservation,
  decidedBy,
  type GatewayObserver,
  type ObservedCallEnd,
  type SpanPort,
  type StageDecision,
  type ToolCall,
  type ToolSpec,
  type TracerPort,
} from '../core/index.js';
import type { TelemetryMetrics } from './metrics-port.js';

/**
 * The gateway's calls as spans (docs/operations.md, "Traces"): one `execute_tool {tool}` span
 * per call (OpenTelemetry GenAI conventions) with one child per stage, one for the execution,
 * and `twinline.*` attributes for the verdict, deciding stage, rule and tenant — never arguments.
 */
export function spanObserver(tracer: TracerPort): GatewayObserver {
  return {
    call(call: ToolCall, ctx: CallContext, tool: ToolSpec | undefined): CallObservation {
      const span = tracer.start(`execute_tool ${call.name}`, {
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': call.name,
          'gen_ai.tool.call.id': call.id,
          'gen_ai.tool.type': tool?.kind === 'mcp' ? 'extension' : 'function',
          'gen_ai.conversation.id': ctx.sessionId,
          'twinline.tenant': ctx.identity.tenant,
          'twinline.line': ctx.domain ?? 'main',
          'twinline.agent': ctx.agent?.name ?? 'main',
          'twinline.task.id': ctx.taskId,
          'twinline.tool.risk': tool?.riskLevel,
        },
      });
      return {
        stage(name) {
          const s = span.child(`twinline.stage ${name}`, { 'twinline.stage': name });
          return {
            end(d) {
              if (d) s.set(decisionAttributes(d));
              s.end();
            },
          };
        },
        async execute(toolName, run) {
          const s = span.child(`twinline.execute ${toolName}`, { 'twinline.stage': 'execute' });
          try {
            const outcome = await s.within(run);
            s.set({ 'twinline.status': outcome.status });
            if (outcome.status !== 'executed') s.fail(outcome.status);
            return outcome;
          } catch (err) {
            s.fail('exception', err instanceof Error ? err.name : undefined);
            throw err;
          } finally {
            s.end();
          }
        },
        end(outcome) {
          endCall(span, outcome);
        },
      };
    },
  };
}

function decisionAttributes(d: StageDecision) {
  return { 'twinline.decision': d.verdict, 'twinline.rule_id': d.ruleId, 'twinline.stage': d.stage };
}

function endCall(span: SpanPort, outcome: ObservedCallEnd): void {
  const by = decidedBy(outcome.status, outcome.path);
  span.set({
    'twinline.status': outcome.status,
    'twinline.decision': outcome.decision.verdict,
    'twinline.stage': outcome.decision.stage,
    'twinline.rule_id': outcome.decision.ruleId,
    'twinline.decided_by': by ? `${by.stage}/${by.ruleId}` : undefined,
  });
  if (outcome.status === 'failed' || outcome.status === 'timeout') span.fail(outcome.status);
  span.end();
}

/**
 * The gateway's calls as metrics: every stage's decision and latency, the execution's latency.
 * A metric that cannot be recorded is dropped: counting never changes a decision.
 */
export function metricsObserver(metrics: TelemetryMetrics): GatewayObserver {
  const record = (stage: string, d: StageDecision | undefined, started: number) => {
    try {
      metrics.stage(stage, d, (performance.now() - started) / 1000);
    } catch {
      // dropped, see above
    }
  };
  return {
    call(): CallObservation {
      return {
        stage(name) {
          const started = performance.now();
          return { end: (d) => record(name, d, started) };
        },
        async execute(_tool, run) {
          const started = performance.now();
          try {
            return await run();
          } finally {
            record('execute', undefined, started);
          }
        },
        end() {},
      };
    },
  };
}

/** Several observers as one (undefined ones left out); undefined when none is left. */
export function combineObservers(
  ...observers: readonly (GatewayObserver | undefined)[]
): GatewayObserver | undefined {
  const present = observers.filter((o): o is GatewayObserver => o !== undefined);
  if (present.length <= 1) return present[0];
  return {
    call(call, ctx, tool) {
      const each = present.map((o) => o.call(call, ctx, tool));
      return {
        stage(name) {
          const seen = each.map((o) => o.stage(name));
          return {
            end: (d) => {
              for (const s of seen) s.end(d);
            },
          };
        },
        // The first observer's execution wraps the next one's, so a span stays active for all.
        execute(tool, run) {
          return each.reduceRight<typeof run>((inner, o) => () => o.execute(tool, inner), run)();
        },
        end(outcome) {
          for (const o of each) o.end(outcome);
        },
      };
    },
  };
}
