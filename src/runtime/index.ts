export { registerConfiguredTools } from './configured-tools.js';
export { createRuntime, type Runtime, type RuntimeOptions } from './create-runtime.js';
export { IdentityDirectory } from './identity-directory.js';
