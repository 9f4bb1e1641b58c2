import { pathSubject } from '../permission-subjects.js';
import type { ToolAnnotations, ToolPermissions, ToolSpec } from '../spec.js';
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

/** The manifest fields every workspace file tool shares; each adds its name, schema and `execute`. */
type FileToolHeader = Pick<
  ToolSpec,
  'annotations' | 'riskLevel' | 'permissions' | 'requiresReview' | 'timeoutMs' | 'kind' | 'permissionSubject'
> &
  Pick<Partial<ToolSpec>, 'concurrencySafe'>;

/**
 * A tool that only reads workspace files: read-only, low risk, safe to run beside other reads,
 * judged by permission rules on the path it reads.
 */
export function fileReaderHeader(options: WorkspaceToolOptions, timeoutMs = 30_000): FileToolHeader {
  return {
    annotations: READ_ONLY,
    riskLevel: 'low',
    permissions: workspacePermissions(options),
    requiresReview: false,
    timeoutMs,
    concurrencySafe: true,
    kind: 'read',
    permissionSubject: pathSubject,
  };
}

/** A tool that writes workspace files: medium risk, judged by permission rules on the path it writes. */
export function fileWriterHeader(
  options: WorkspaceToolOptions,
  annotations: ToolAnnotations,
): FileToolHeader {
  return {
    annotations,
    riskLevel: 'medium',
    permissions: workspacePermissions(options),
    requiresReview: false,
    timeoutMs: 30_000,
    kind: 'edit',
    permissionSubject: pathSubject,
  };
}
