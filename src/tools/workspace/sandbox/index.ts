export {
  bubblewrapArgs,
  type ConfinedProfile,
  EGRESS_DIR,
  type HiddenPath,
  type HostPath,
  SANDBOX_HOME,
  type SandboxPlan,
} from './bubblewrap-args.js';
export { BubblewrapBackend, DEFAULT_BWRAP_PATH, type SandboxStatus } from './bubblewrap-backend.js';
export {
  domainCovers,
  type EgressEvent,
  type EgressPolicy,
  type EgressProxy,
  startEgressProxy,
} from './egress-proxy.js';
export {
  type PreparedRun,
  ProcessSandbox,
  type SandboxOptions,
  sandboxOptionsFromEnv,
  sqliteStatePaths,
} from './process-sandbox.js';
export {
  ENSURED_DIRS,
  protectedPathsOf,
  STARTUP_FILES,
} from './protected-paths.js';
export { ETC_FILES, sandboxEtc } from './sandbox-etc.js';
export { planSandbox } from './sandbox-plan.js';
