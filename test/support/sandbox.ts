import { ProcessSandbox } from '../../src/tools/workspace/index.js';

/**
 * Whether this machine can create the process sandbox (bubblewrap with user namespaces). CI
 * installs bubblewrap (.ci/run); where namespaces are refused, the tests of confined runs skip
 * with this message, and the fail-closed tests (a missing binary) still run everywhere.
 */
const status = new ProcessSandbox().status();
export const sandboxUp = status.available;
if (!sandboxUp) {
  console.warn(
    `[skip] no process sandbox here (${status.reason}) — confined-run tests skipped; fail-closed tests still run`,
  );
}
