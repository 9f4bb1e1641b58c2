import { writeSync } from 'node:fs';

/**
 * Writes a one-shot command's whole result to standard output, synchronously on file descriptor 1.
 * Creating `process.stdout` loads Node's net/tty stream machinery, close to 10 ms of a cold start
 * (docs/startup.md, "What keeps it fast"), for one write. A reader that went away (EPIPE) ends the output quietly, as `head`
 * expects; a non-blocking descriptor that is momentarily full (EAGAIN) is retried.
 */
export function writeOut(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(1, bytes, offset);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') return;
      if (code !== 'EAGAIN') throw err;
      Atomics.wait(PAUSE, 0, 0, 1);
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));
