export type { CanaryCommandOptions } from './canary-cli.js';
export {
  type BaselineComparison,
  type ChangedScenario,
  compareToBaseline,
  DEFAULT_THRESHOLDS,
  type GateThresholds,
  gateViolations,
} from './compare-baseline.js';
export { type Entitlement, EntitlementOracle, type ExecutedCall } from './entitlement-oracle.js';
export { EvalSuiteError } from './errors.js';
export type { EvalCommandOptions } from './eval-cli.js';
export { renderHtmlReport } from './html-report.js';
export {
  judgeModelConsulted,
  judgeScenario,
  type ScenarioObservation,
  visibleText,
} from './judge-scenario.js';
export { type LoadedScenario, type LoadedSuite, loadSuiteFile, loadSuites } from './load-suite.js';
export {
  type EvalReport,
  type Metrics,
  percentile,
  type ScenarioReport,
  type Summary,
  summarize,
} from './report.js';
export { type RunSuiteOptions, runSuites } from './run-suite.js';
export {
  type ProposedCall,
  type ResolvedScript,
  resolvePlaceholders,
  resolveScript,
} from './scripted-model.js';
export {
  OUTCOMES,
  ROUTE_TARGETS,
  SCENARIO_KINDS,
  type Scenario,
  type ScenarioKind,
  type SuiteFile,
  scenarioSchema,
  suiteFileSchema,
} from './suite-schema.js';
