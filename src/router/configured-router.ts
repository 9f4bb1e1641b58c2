import { existsSync } from 'node:fs';
import type { RouterModel } from './classifier.js';
import { RouterModelError } from './errors.js';
import { readRouterModel } from './model-file.js';
import { normalizeRequest } from './normalize.js';
import { type RouteSetup, route } from './route.js';
import { ROUTE_RULES, type RouteRule } from './rules.js';
import type { RouteClass, RouteDecision, RouteOptions } from './types.js';

/** A routing rule as a domain's config writes it (`router.rules`). */
export interface ConfiguredRouteRule {
  readonly id: string;
  readonly line: 'deep' | 'quick' | 'readonly';
  /** Whole words or phrases; a phrase with Chinese, Japanese or Korean characters matches anywhere. */
  readonly phrases?: readonly string[];
  /** A regular expression over the normalised (NFKC, lower-case) request. */
  readonly pattern?: string;
  readonly weight: number;
}

/** The `router` section of a config, paths absolute. */
export interface RouterSettings {
  /** Classifier weights file; absent → rules only. */
  readonly weights?: string;
  /** Built-in rule tables: `office` is the sample domain's (and adds its cross-system signal). */
  readonly presets: readonly 'office'[];
  readonly rules: readonly ConfiguredRouteRule[];
  readonly threshold?: number;
}

/** A domain's router: its model (if any) and rules, fixed at start-up. */
export interface ConfiguredRouter {
  /** `classifier` when a weights file is configured, else `rules-only`. */
  readonly mode: 'classifier' | 'rules-only';
  /** How many rules it routes by. */
  readonly ruleCount: number;
  /** A line for start-up output saying how this domain routes (always set in rules-only mode). */
  readonly notice: string | undefined;
  route(query: string, options?: RouteOptions): RouteDecision;
}

const LINE_CLASS: Record<ConfiguredRouteRule['line'], RouteClass> = {
  deep: 'deep',
  quick: 'quick',
  readonly: 'readonly_fallback',
};

const WIDE_SCRIPT = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The pattern of a phrase list: each phrase normalised as requests are; phrases in scripts with
 * spaces between words match whole words only (`refund` does not match `refunded`), phrases in
 * scripts written without spaces match anywhere.
 */
function phrasePattern(phrases: readonly string[]): RegExp {
  const parts = phrases.map((raw) => {
    const p = escapeRegExp(normalizeRequest(raw)).replace(/ /g, '\\s+');
    return WIDE_SCRIPT.test(raw) ? p : `(?<![\\p{L}\\p{N}_])${p}(?![\\p{L}\\p{N}_])`;
  });
  return new RegExp(parts.join('|'), 'u');
}

/** Compiles `router.rules` (the loader already checked that each has phrases or a valid pattern). */
export function compileRouteRules(rules: readonly ConfiguredRouteRule[]): RouteRule[] {
  return rules.map((r) => ({
    id: r.id,
    lean: LINE_CLASS[r.line],
    weight: r.weight,
    pattern: r.phrases ? phrasePattern(r.phrases) : new RegExp(r.pattern ?? '$^', 'u'),
  }));
}

/**
 * Builds a domain's router from its `router` section. Without a weights file it routes by its
 * rules alone and says so (`notice`, and `routing: 'rules-only'` on every decision); without a
 * section at all nothing routes to a tool line. A weights file that is named but missing or
 * unreadable stops start-up.
 */
export function createConfiguredRouter(
  settings: RouterSettings | undefined,
  where = 'router',
): ConfiguredRouter {
  const presets = settings?.presets ?? [];
  const own = compileRouteRules(settings?.rules ?? []);
  const rules = [...(presets.includes('office') ? ROUTE_RULES : []), ...own];
  const seen = new Set<string>();
  for (const r of rules) {
    if (seen.has(r.id))
      throw new RouterModelError('router_rule_duplicate', `rule id ${r.id} is used twice`, { where });
    seen.add(r.id);
  }
  let model: RouterModel | null = null;
  if (settings?.weights) {
    if (!existsSync(settings.weights))
      throw new RouterModelError('router_model_missing', 'the router weights file does not exist', {
        where: `${where}.weights: ${settings.weights}`,
      });
    model = readRouterModel(settings.weights);
  }
  const setup: RouteSetup = { model, rules, crossSystem: presets.includes('office') };
  const threshold = settings?.threshold;
  const notice = model
    ? undefined
    : rules.length === 0
      ? 'router: no rules and no weights file are configured: every request goes to the read-only line'
      : `router: no trained model is configured (router.weights), so requests are routed by the ${rules.length} configured rule(s) alone; a request no rule decides goes to the read-only line`;
  return {
    mode: model ? 'classifier' : 'rules-only',
    ruleCount: rules.length,
    notice,
    route(query, options) {
      return route(query, {
        ...setup,
        ...(threshold !== undefined ? { threshold } : {}),
        ...options,
      });
    },
  };
}
