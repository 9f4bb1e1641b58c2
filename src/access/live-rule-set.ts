import { type CompiledRuleSet, extendRuleSet, type RuleSource } from './rule-set.js';
import { RuleSetMemo } from './rule-set-memo.js';

/**
 * A rule set that can gain rules while a session runs: the configured rules (settings, command
 * line) with the session's own on top — the rules a host added with "always allow / deny this"
 * (docs/protocol.md, "updatedPermissions"). Deny > ask > allow still holds across both, so a
 * session rule can never override a configured deny. Every call reads the current rules.
 */
export class LiveRuleSet implements CompiledRuleSet {
  readonly #base: CompiledRuleSet;
  #sources: RuleSource[] = [];
  #current: CompiledRuleSet;
  #version = 0;
  /** Its verdicts are dropped whenever the session's rules change (see `version`). */
  readonly memo = new RuleSetMemo();

  constructor(base: CompiledRuleSet) {
    this.#base = base;
    this.#current = base;
  }

  get rules() {
    return this.#current.rules;
  }
  get warnings() {
    return this.#current.warnings;
  }
  get roots() {
    return this.#base.roots;
  }

  /** The session's rule sources, in the order they were added. */
  get sessionSources(): readonly RuleSource[] {
    return this.#sources;
  }

  rulesFor(tool: string) {
    return this.#current.rulesFor(tool);
  }

  wholeToolDenied(tool: string) {
    return this.#current.wholeToolDenied(tool);
  }

  version(): number {
    return this.#version;
  }

  /** Adds rules from `source`; returns the warnings of those that did not parse (they are ignored). */
  add(source: RuleSource): readonly string[] {
    const before = this.#current.warnings.length;
    this.#sources.push(source);
    this.#rebuild();
    return this.#current.warnings.slice(before).map((w) => `${w.rule}: ${w.message}`);
  }

  /** Removes the session rules with exactly these texts (configured rules are never removed). */
  remove(effect: 'allow' | 'ask' | 'deny', rules: readonly string[]): number {
    let removed = 0;
    this.#sources = this.#sources.map((s) => {
      const list = s[effect] ?? [];
      const kept = list.filter((r) => !rules.includes(r));
      removed += list.length - kept.length;
      return { ...s, [effect]: kept };
    });
    if (removed > 0) this.#rebuild();
    return removed;
  }

  #rebuild(): void {
    this.#current = extendRuleSet(this.#base, this.#sources);
    this.#version++;
  }
}
