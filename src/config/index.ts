export { egressSettings, loadWatermarkKey, watermarkKeyFile } from './egress-settings.js';
export {
  type DeepAdmissionConfig,
  type DeepAdmissionSettings,
  type EgressConfig,
  loadConfig,
  loadOfficeDomain,
  OFFICE_CONFIG_PATH,
  resolveDeepAdmission,
  type TwinlineConfig,
} from './load-config.js';
export { loadTools } from './load-tools.js';
export { prebuiltOfficeDomain } from './prebuilt-office-config.js';
export { linkToolsModule } from './prebuilt-tools.js';
export {
  type ConfigFile,
  configSchemas,
  EGRESS_CHANNELS,
  type RolesFile,
  type UsersFile,
} from './schema.js';
export { loadYamlFile } from './yaml-file.js';
