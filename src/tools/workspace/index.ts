import type { ToolSpec } from '../spec.js';
import { createEditTool } from './edit-file.js';
import { createGlobTool } from './glob-files.js';
import { createGrepTool } from './grep-files.js';
import { createListDirectoryTool } from './list-directory.js';
import { createReadFileTool } from './read-file.js';
import { createShellTool } from './shell.js';
import { createWebFetchTool } from './web-fetch.js';
import type { WorkspaceToolOptions } from './workspace-options.js';
import { createWriteFileTool } from './write-file.js';

export { countOccurrences, createEditTool, type EditResult } from './edit-file.js';
export { WorkspacePathError, WorkspaceProtectedPathError, WorkspaceToolError } from './errors.js';
export { createGlobTool, type GlobResult } from './glob-files.js';
export { createGrepTool, type GrepMatch, type GrepResult } from './grep-files.js';
export { createListDirectoryTool, type DirectoryEntry, type ListDirectoryResult } from './list-directory.js';
export { addressesOf, isNonPublicAddress, nonPublicAddressOf } from './network-address.js';
export { type GroupRunResult, killGroup, runInProcessGroup } from './process-group.js';
export {
  assertReadable,
  assertWritable,
  type ProtectedPath,
  protectedPathCheck,
  secretPathCheck,
} from './protected-paths.js';
export { createReadFileTool, type ReadFileResult } from './read-file.js';
export {
  BubblewrapBackend,
  DEFAULT_BWRAP_PATH,
  type EgressPolicy,
  type PreparedRun,
  ProcessSandbox,
  protectedPathsOf,
  type SandboxOptions,
  type SandboxStatus,
  sandboxOptionsFromEnv,
  sqliteStatePaths,
  startEgressProxy,
} from './sandbox/index.js';
export { createShellTool, type ShellResult } from './shell.js';
export { createWebFetchTool, type WebFetchResult } from './web-fetch.js';
export { DEFAULT_WORKSPACE_PERMISSIONS, type WorkspaceToolOptions } from './workspace-options.js';
export { isWithin, resolveInWorkspace, rootsFor, type WorkspaceRoots } from './workspace-paths.js';
export { createWriteFileTool, type WriteFileResult } from './write-file.js';

/**
 * The built-in workspace tools: read_file, write_file, edit, list_directory, glob, grep, shell,
 * web_fetch. Every path argument is confined to the workspace root (the call's `cwd`, else
 * `options.root`) and `options.extraRoots`; these tools still run only through the ToolGateway.
 */
export function createWorkspaceTools(options: WorkspaceToolOptions = {}): ToolSpec[] {
  return [
    createReadFileTool(options),
    createWriteFileTool(options),
    createEditTool(options),
    createListDirectoryTool(options),
    createGlobTool(options),
    createGrepTool(options),
    createShellTool(options),
    createWebFetchTool(options),
  ];
}
