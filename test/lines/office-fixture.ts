import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOfficeDomain, type TwinlineConfig } from '../../src/config/index.js';
import { RECENT } from '../support/recent-dates.js';

/** The office domain with its data and store in a fresh temporary folder. */
export function officeConfigIn(dir = mkdtempSync(join(tmpdir(), 'twinline-lines-'))): {
  config: TwinlineConfig;
  dir: string;
  cleanup: () => void;
} {
  const base = loadOfficeDomain();
  const config: TwinlineConfig = {
    ...base,
    tools: { ...base.tools, options: { ...base.tools.options, dataDir: join(dir, 'office') } },
    store: { sqliteFile: join(dir, 'twinline.sqlite') },
  };
  return { config, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The request a finance analyst makes for the atlas billing report, and the plan that answers it:
 * a document search, then the high-risk billing query that waits for review. */
export const ATLAS_BILLING_REQUEST = '分析 atlas 项目的账单并生成报告';
export const ATLAS_BILLING_PLAN = {
  goal: 'Atlas billing',
  capabilities: ['billing_report_query'],
  steps: [
    { goal: 'policy', tool: 'doc_search', args: { query: 'billing' } },
    { goal: 'billing', tool: 'billing_report_query', args: { period: '2026-11', project: 'atlas' } },
  ],
};

/** A deep-line plan of `n` steps for `bob` (sales manager, east): reads and tickets alternate. */
export function deepPlan(n: number, marker: string) {
  const steps = [];
  for (let i = 1; i <= n; i++) {
    if (i % 3 === 0) {
      steps.push({
        goal: `File follow-up ${i}`,
        tool: 'ticket_create',
        args: { title: `${marker} follow-up ${i}`, body: `step ${i}`, priority: 'normal' },
      });
    } else if (i % 3 === 1) {
      steps.push({
        goal: `Sales in the east, batch ${i}`,
        tool: 'sales_query',
        args: { ...RECENT, region: 'east' },
      });
    } else {
      steps.push({
        goal: `Calendar check ${i}`,
        tool: 'calendar_list',
        args: RECENT,
      });
    }
  }
  return { goal: 'Analyse east-region sales and file follow-ups', capabilities: [], steps };
}
