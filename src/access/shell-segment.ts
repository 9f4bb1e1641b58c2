/** One simple command of a compound line. */
export interface ShellSegment {
  /** Words with quotes removed, after leading `VAR=x` assignments and benign wrappers. */
  readonly words: readonly string[];
  /** `words` joined by single spaces: what command rules match. */
  readonly text: string;
  /**
   * The command with privilege/forwarding wrappers also stripped (`sudo`, `xargs`, `exec`,
   * `command`); deny and ask rules match this as well, so `sudo rm -rf x` meets `shell(rm *)`.
   */
  readonly core: string;
  /** Output redirection targets (`> f`, `>> f`, `&> f`); `/dev/null` and `&N` are left out. */
  readonly writes: readonly string[];
  /** Input redirection sources (`< f`). */
  readonly reads: readonly string[];
  /** True when this command came from inside `$(…)`, backticks, `<(…)` or `sh -c "…"`. */
  readonly nested: boolean;
  /**
   * A leading assignment sets a variable that can make the command run other code
   * (`LD_PRELOAD`, `GIT_SSH_COMMAND`, `PAGER`, `BASH_ENV`, …): no allow rule approves it.
   */
  readonly riskyEnv: boolean;
}
