/**
 * The document partition: business documents and structured records stay where they live and
 * are read through tools (so every read passes the ToolGateway with the caller's identity).
 * Memory keeps no copy; a line holds only the reference it was given.
 */
export interface DocumentReader {
  /** Reads one document through the gateway-backed tool the line was configured with. */
  read(ref: string): Promise<DocumentView>;
}

export interface DocumentView {
  ref: string;
  title: string;
  /** Content as the tool returned it (already redacted by the result gate). */
  content: string;
}

/** A document partition that reads through `readThroughTool` and never caches. */
export function documentPartition(readThroughTool: (ref: string) => Promise<DocumentView>): DocumentReader {
  return { read: (ref) => readThroughTool(ref) };
}
