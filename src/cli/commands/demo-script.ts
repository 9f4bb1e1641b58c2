/** One scripted call of the demo: who asks for what, and why it is in the script. */
export interface DemoStep {
  readonly tenant: string;
  readonly user: string;
  readonly tool: string;
  readonly args: unknown;
  readonly note: string;
  /** High-risk tools the user's request declared (the intent slot), as a line derives them. */
  readonly declares?: readonly string[];
}

/** The walkthrough: allowed, denied and review-bound calls on the office domain. */
export const DEMO_STEPS: readonly DemoStep[] = [
  {
    tenant: 'acme',
    user: 'alice',
    tool: 'calendar_list',
    args: { from: '2026-11-02', to: '2026-11-06', attendee: 'alice' },
    note: 'an employee reads her calendar',
  },
  {
    tenant: 'acme',
    user: 'alice',
    tool: 'sales_query',
    args: { from: '2026-07-01', to: '2026-12-31', region: 'east' },
    note: 'sales figures need data level L2; alice has L1',
  },
  {
    tenant: 'acme',
    user: 'mallory',
    tool: 'salary_analysis',
    args: { departments: ['all'] },
    note: 'salaries are for hr_analyst only',
  },
  {
    tenant: 'acme',
    user: 'mallory',
    tool: 'record_delete',
    args: { table: 'customers', id: 'acme-c-001' },
    note: 'no role may delete records',
  },
  {
    tenant: 'acme',
    user: 'mallory',
    tool: 'calendar_reschedule',
    args: { eventId: 'evt-0001', start: 'tomorrow 9am', end: '2026-12-01T10:00:00Z' },
    note: 'arguments must match the schema',
  },
  {
    tenant: 'acme',
    user: 'mallory',
    tool: 'admin_shell',
    args: { command: 'cat /etc/passwd' },
    note: 'a tool that does not exist is simply not available',
  },
  {
    tenant: 'acme',
    user: 'mallory',
    tool: 'doc_search',
    args: { query: 'vendor onboarding', limit: 2 },
    note: 'documents come back as data, whatever they say',
  },
  {
    tenant: 'acme',
    user: 'carol',
    tool: 'billing_report_query',
    args: { period: '2026-11' },
    declares: ['billing_report_query'],
    note: 'a high-risk tool the user asked for waits for a human reviewer',
  },
  {
    tenant: 'globex',
    user: 'gina',
    tool: 'billing_report_query',
    args: { period: '2026-11' },
    declares: ['billing_report_query'],
    note: 'another tenant, its own data file and its own review',
  },
];
