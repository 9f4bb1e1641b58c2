import { afterEach } from 'vitest';
import { officeConfigIn } from './office-fixture.js';

// Apart from office-fixture.ts, which worker processes outside the test runner import too.

/**
 * What a test opens on the office domain, closed and removed when the test ends: `office()` gives
 * the domain in a fresh temporary folder, `closeAfter(x)` closes `x` (newest first) before the
 * folders go.
 */
export function officePerTest() {
  const open: { close(): Promise<void> }[] = [];
  const folders: (() => void)[] = [];
  afterEach(async () => {
    for (const x of open.splice(0).reverse()) await x.close();
    for (const remove of folders.splice(0)) remove();
  });
  return {
    office(): ReturnType<typeof officeConfigIn> {
      const o = officeConfigIn();
      folders.push(o.cleanup);
      return o;
    },
    closeAfter<T extends { close(): Promise<void> }>(x: T): T {
      open.push(x);
      return x;
    },
  };
}
