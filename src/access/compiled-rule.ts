import type { ParsedRule, RuleEffect } from './rule-parser.js';

/** A rule with its matcher built. */
export interface CompiledRule extends ParsedRule {
  /** For specifier rules: does the call's subject (command, path, host, agent type, args) match? */
  readonly test?: (subject: unknown) => boolean;
  /** Index key a matching subject must have (see `RuleIndex`, rule-set.ts). */
  readonly key?: string;
}

/** The outcome of matching a call against the rules. */
export interface RuleEvaluation {
  readonly effect: RuleEffect | 'none';
  readonly rule?: CompiledRule;
  /** Shell calls: the line's analysis, reused by approval modes. */
  readonly shell?: { readonly readOnly: boolean; readonly destructive: boolean; readonly opaque: boolean };
}
