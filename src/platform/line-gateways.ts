import type { ToolGateway } from '../gateway/index.js';
import { createWriteFactStage, type QuickResultCache, withQuickCache } from '../lines/index.js';
import {
  type GatewaySite,
  Pipeline,
  type PipelineLayers,
  PROFILES,
  reviewReplayProfile,
} from '../pipeline/index.js';
import type { ToolBreakers, UserRateLimiter } from '../resilience/index.js';
import type { ApprovedReviewRunner } from '../review/index.js';
import type { AuditSink } from '../store/index.js';
import type { ToolSpec } from '../tools/index.js';
import { LineToolCatalog, withBreaker } from './line-tools.js';
import type { LineName } from './platform-types.js';

/** Each line's tools, its serve gateway, and the replay gateway its approved reviews run on. */
export interface LineGateways {
  readonly tools: Readonly<Record<LineName, LineToolCatalog>>;
  readonly gateways: Readonly<Record<LineName, ToolGateway>>;
  /** Approved reviews run again on the profile of the line they came from, review slot aside. */
  readonly replays: Readonly<Record<LineName, ToolGateway>>;
  /** Runs an approved review on the replay gateway of the line its call came from. */
  readonly replayRunner: ApprovedReviewRunner;
}

/**
 * The three lines' trust chains: each line's allowed tools behind the breakers (the quick line's
 * also behind the read cache), and a gateway of its serve profile over exactly those tools.
 */
export function lineGateways(
  pipeline: Pipeline,
  tools: Readonly<Record<LineName, readonly ToolSpec[]>>,
  breakers: ToolBreakers,
  cache: QuickResultCache,
): LineGateways {
  const catalogs = {
    deep: new LineToolCatalog(tools.deep.map((t) => withBreaker(t, breakers))),
    quick: new LineToolCatalog(tools.quick.map((t) => withQuickCache(withBreaker(t, breakers), cache))),
    readonly: new LineToolCatalog(tools.readonly.map((t) => withBreaker(t, breakers))),
  };
  const site = (c: LineToolCatalog): GatewaySite => ({ tools: c, allow: c.names });
  const profile = { deep: 'serve.deep', quick: 'serve.quick', readonly: 'serve.readonly' } as const;
  const per = (f: (line: LineName) => ToolGateway) => ({
    deep: f('deep'),
    quick: f('quick'),
    readonly: f('readonly'),
  });
  const replays = per((line) =>
    pipeline.gateway(reviewReplayProfile(PROFILES[profile[line]]), site(catalogs[line])),
  );
  return {
    tools: catalogs,
    gateways: per((line) => pipeline.gateway(PROFILES[profile[line]], site(catalogs[line]))),
    replays,
    replayRunner: {
      executeApprovedReview: (review, replay) =>
        (replays[review.domain as LineName] ?? replays.deep).executeApprovedReview(review, replay),
    },
  };
}

/**
 * The pipeline of the serve profiles: the same layers `twinline check` explains (`layers`), plus
 * this process's audit, rate limit, breakers, the quick line's write facts and the observer.
 */
export function servePipeline(
  layers: PipelineLayers,
  process: {
    readonly audit: AuditSink;
    readonly rateLimiter: UserRateLimiter;
    readonly breakers: ToolBreakers;
    readonly observer: PipelineLayers['observer'];
  },
): Pipeline {
  return new Pipeline({ ...layers, ...process, factStage: createWriteFactStage() });
}
