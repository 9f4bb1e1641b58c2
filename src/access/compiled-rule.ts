import type { ParsedRule } from './rule-parser.js';

/** A rule with its matcher built. */
export interface CompiledRule extends ParsedRule {
  /** For specifier rules: does the call's subject (command, path, host, agent type, args) match? */
  readonly test?: (subject: unknown) => boolean;
  /** Index key a matching subject must have (see `RuleIndex`, rule-set.ts). */
  readonly key?: string;
}
