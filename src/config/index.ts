export { type ConfigSource, configSource } from '../core/index.js';
export {
  type ConfiguredStore,
  configuredStore,
  DATA_FOLDER,
  resolveDataDir,
} from './data-dir.js';
export { egressSettings, loadWatermarkKey, watermarkKeyFile } from './egress-settings.js';
export {
  type DeepAdmissionConfig,
  type DeepAdmissionSettings,
  type EgressConfig,
  type LoadConfigOptions,
  loadConfig,
  loadOfficeDomain,
  OFFICE_CONFIG_PATH,
  type PromptsConfig,
  type RouterConfig,
  resolveDeepAdmission,
  type TwinlineConfig,
} from './load-config.js';
export { loadTools, type ToolsContext } from './load-tools.js';
export { prebuiltOfficeDomain } from './prebuilt-office-config.js';
export { linkToolsModule } from './prebuilt-tools.js';
export {
  type ConfigFile,
  configSchemas,
  EGRESS_CHANNELS,
  type ModelSection,
  type RolesFile,
  type RouterSection,
  type UsersFile,
} from './schema.js';
export { loadYamlFile } from './yaml-file.js';
