import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line, `N passed, N failed, N skipped`, that CI and people can read
 * without parsing vitest's own summary. Failed modules (a file that did not load) count
 * as one failure each so a broken import can never read as green.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      let count = 0;
      for (const test of mod.children.allTests()) {
        count++;
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (count === 0 && mod.state() === 'failed') failed++;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
