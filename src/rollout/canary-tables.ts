/** Rows of the canary tables (migration 003_config_canary). */
export interface ConfigVersionsTable {
  version: string;
  label: string;
  config_path: string;
  config_hash: string;
  created_at: string;
}

export interface ConfigRolloutsTable {
  id: string;
  stable_version: string | null;
  canary_version: string;
  basis_points: number;
  status: string;
  reason: string | null;
  started_at: string;
  ended_at: string | null;
}

export interface ConfigVersionMetricsTable {
  id: string;
  version: string;
  source: string;
  recorded_at: string;
  total: number;
  passed: number;
  misuse: number;
}

export interface CanaryDatabase {
  config_versions: ConfigVersionsTable;
  config_rollouts: ConfigRolloutsTable;
  config_version_metrics: ConfigVersionMetricsTable;
}
