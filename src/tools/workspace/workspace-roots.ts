/** The roots a call may touch: the workspace root first, then the extra roots. */
export interface WorkspaceRoots {
  readonly root: string;
  readonly extra: readonly string[];
}
