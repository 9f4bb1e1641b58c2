import type { ToolAnnotations, ToolPermissions } from '../spec.js';
import { DEFAULT_WORKSPACE_PERMISSIONS, type WorkspaceToolOptions } from './workspace-options.js';

/** Annotations of the tools that only look. */
export const READ_ONLY: ToolAnnotations = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
};

/** Permissions for a workspace tool: the defaults overlaid by the configured ones. */
export function workspacePermissions(options: WorkspaceToolOptions): ToolPermissions {
  return { ...DEFAULT_WORKSPACE_PERMISSIONS, ...options.permissions };
}
