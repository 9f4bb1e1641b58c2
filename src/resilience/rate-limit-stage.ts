import { decide, type StageDecision } from '../core/index.js';
import type { CallContext, GatewayStage, PreparedCall } from '../gateway/index.js';
import type { UserRateLimiter } from './rate-limit.js';

/** Rule id of a call refused for exceeding its rate limit; the gateway reports it as `rate_limited`. */
export const RATE_LIMITED_RULE = 'resilience.rate-limited';

export interface RateLimitStageOptions {
  readonly limiter: UserRateLimiter;
  /** Only calls in these audit domains are limited (default: every domain). */
  readonly domains?: readonly string[];
}

/**
 * Gateway stage `resilience.rate-limit`: one point per call, keyed by tenant and user from the
 * trusted identity — a script hammering tools is refused with `retryAfterMs`, and the refusal is
 * audited like any other decision.
 */
export function createRateLimitStage(options: RateLimitStageOptions): GatewayStage {
  const domains = options.domains ? new Set(options.domains) : undefined;
  return {
    name: 'resilience',
    async evaluate(_call: PreparedCall, ctx: CallContext): Promise<StageDecision> {
      if (domains && !domains.has(ctx.domain ?? 'main')) {
        return decide('allow', 'resilience', 'resilience.not-limited', 'Not rate limited in this line.');
      }
      const outcome = await options.limiter.consume(`${ctx.identity.tenant}:${ctx.identity.user}`);
      if (outcome.allowed) {
        return decide('allow', 'resilience', 'resilience.within-limit', 'Within the rate limit.');
      }
      return decide(
        'deny',
        'resilience',
        RATE_LIMITED_RULE,
        `Rate limit reached; retry after ${outcome.retryAfterMs} ms.`,
        { details: { retryAfterMs: outcome.retryAfterMs, status: 'rate_limited' } },
      );
    },
  };
}
