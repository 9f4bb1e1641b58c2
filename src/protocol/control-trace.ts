import { appendFileSync } from 'node:fs';

/**
 * Round-trip timing of the engine's own control requests (`can_use_tool`, …), for
 * `bench/startup.ts`. Enabled by `TWINLINE_TRACE_CONTROL=<file>`: each answered request appends
 * one line `<subtype> <milliseconds>` to the file when the engine exits. It watches the raw lines
 * only (never parses or changes them), so the protocol path is the same with or without it.
 */
export class ControlTrace {
  private readonly sent = new Map<string, { subtype: string; at: number }>();
  private readonly lines: string[] = [];

  constructor(private readonly file: string) {}

  /** A line the engine wrote to the host. */
  out(line: string): void {
    if (!line.startsWith('{"type":"control_request"')) return;
    const id = /"request_id":"([^"]+)"/.exec(line)?.[1];
    const subtype = /"subtype":"([^"]+)"/.exec(line)?.[1];
    if (id && subtype) this.sent.set(id, { subtype, at: performance.now() });
  }

  /** A chunk the host wrote to the engine. */
  in(chunk: string): void {
    if (this.sent.size === 0 || !chunk.includes('control_response')) return;
    const now = performance.now();
    for (const m of chunk.matchAll(/"request_id":"([^"]+)"/g)) {
      const req = this.sent.get(m[1] as string);
      if (!req) continue;
      this.sent.delete(m[1] as string);
      this.lines.push(`${req.subtype} ${(now - req.at).toFixed(4)}\n`);
    }
  }

  /** Writes what was measured. Never throws: a trace must not change the exit. */
  flush(): void {
    if (this.lines.length === 0) return;
    try {
      appendFileSync(this.file, this.lines.join(''));
    } catch {
      // the bench reports a missing trace; the engine carries on
    }
    this.lines.length = 0;
  }
}
