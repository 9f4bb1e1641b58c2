import type { RuleEvaluation } from './compiled-rule.js';
import type { SplitShellCommand } from './shell-split.js';

/** A shell line's analysis, which approval modes reuse. */
export interface ShellAnalysis {
  readonly split: SplitShellCommand;
  readonly shell: { readonly readOnly: boolean; readonly destructive: boolean; readonly opaque: boolean };
}

/** Lines longer than this are judged afresh every time: remembering them costs more than it saves. */
const MAX_REMEMBERED_LINE = 4096;

/**
 * What one rule set remembers of the shell lines it judged: their verdicts, with the analysis
 * approval modes reuse. The access and approval stages judge the same line against the same set,
 * so once is enough. Small on purpose: the hit that matters is the approval stage right after the
 * access stage, and a large store of fresh lines only feeds the old-generation GC (tail latency).
 * Owned by its rule set, so nothing outlives it.
 */
export class RuleSetMemo {
  readonly #verdicts = new Map<string, RuleEvaluation>();
  #version: number | undefined;

  /** The verdict remembered for `command` under this version of a live set (session rules). */
  verdict(command: string, version: number | undefined): RuleEvaluation | undefined {
    if (version !== this.#version) {
      this.#verdicts.clear();
      this.#version = version;
    }
    return this.#verdicts.get(command);
  }

  rememberVerdict(command: string, verdict: RuleEvaluation): void {
    if (this.#verdicts.size >= 64) this.#verdicts.clear();
    if (command.length <= MAX_REMEMBERED_LINE) this.#verdicts.set(command, verdict);
  }
}
