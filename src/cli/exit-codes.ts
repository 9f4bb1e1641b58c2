/**
 * The exit codes of every `twinline` command (docs/cli.md, "Exit codes"). One table, so a script
 * can tell "no" from "wrong input" from "a person must look" on any command.
 */

/** Done: the command did what was asked (`check`: the call would be allowed). */
export const EXIT_OK = 0;
/** The command ran and the answer is no, or the work failed (`check --exit-code`: deny; `run`: failed or stopped; `eval`: a regression). */
export const EXIT_FAILED = 1;
/** Usage or input error: unknown option, missing argument, a bad value, a config that does not load. Nothing ran. */
export const EXIT_USAGE = 2;
/** A person must look: `check --exit-code` says review or ask; `run` answered on the degraded path (no model, or the model service failed). */
export const EXIT_ATTENTION = 3;
/** Interrupted (SIGINT). */
export const EXIT_INTERRUPTED = 130;
