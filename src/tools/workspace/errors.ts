import { TwinlineError } from '../../core/index.js';

/** A path argument that resolves (after `..` and symlinks) outside every allowed root. */
export class WorkspacePathError extends TwinlineError {
  constructor(
    readonly path: string,
    reason: string,
    readonly tool: string,
  ) {
    super('workspace.path-outside', `path ${JSON.stringify(path)} refused: ${reason}`, {
      where: `${tool}.path`,
      details: { path, reason },
    });
  }
}

/** A workspace tool that could not do what was asked (no match, binary file, bad URL, …). */
export class WorkspaceToolError extends TwinlineError {
  constructor(code: string, message: string, tool: string, details?: Record<string, unknown>) {
    super(code, message, { where: tool, ...(details ? { details } : {}) });
  }
}

/** A write to a path no tool may write (the engine's own state), found after resolving symlinks. */
export class WorkspaceProtectedPathError extends TwinlineError {
  constructor(
    readonly path: string,
    reason: string,
    readonly tool: string,
  ) {
    super('workspace.path-protected', `path ${JSON.stringify(path)} refused: ${reason}`, {
      where: `${tool}.path`,
      details: { path, reason },
    });
  }
}
