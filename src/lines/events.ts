import type { AgentEvent } from '../agent/index.js';

/** Where a request was sent. */
export type RouteTarget = 'deep' | 'quick' | 'readonly_fallback';

/** How a request ended, in the words the API, the CLI and the evaluation suites use. */
export const REQUEST_OUTCOMES = [
  'completed',
  'denied',
  'review',
  'degraded',
  'rate_limited',
  'queued',
  'failed',
] as const;
export type RequestOutcome = (typeof REQUEST_OUTCOMES)[number];

/**
 * Events of one request across lines: routing, the deep line's plan and steps, the quick line's
 * agent events, degradation, and the final answer. The CLI prints them, the server streams them.
 */
export type LineEvent =
  | {
      readonly type: 'routed';
      readonly target: RouteTarget;
      readonly scores: { readonly deep: number; readonly quick: number };
      readonly rule: string | null;
    }
  | {
      readonly type: 'input_flagged';
      readonly verdict: string;
      readonly score: number;
      readonly reviewId?: string;
    }
  | {
      readonly type: 'task_accepted';
      readonly taskId: string;
      readonly position: number;
      readonly estimatedStartMs: number;
    }
  | {
      readonly type: 'plan';
      readonly taskId: string;
      readonly capabilities: readonly string[];
      readonly steps: readonly { readonly stepNo: number; readonly goal: string; readonly tool: string }[];
    }
  | {
      readonly type: 'step_started';
      readonly taskId: string;
      readonly stepNo: number;
      readonly tool: string;
      readonly goal: string;
    }
  | {
      readonly type: 'step_finished';
      readonly taskId: string;
      readonly stepNo: number;
      readonly tool: string;
      readonly status: string;
      readonly summary: string;
    }
  | { readonly type: 'agent'; readonly event: AgentEvent }
  | { readonly type: 'degraded'; readonly reason: string; readonly ticketId: string }
  | {
      readonly type: 'final';
      readonly outcome: RequestOutcome;
      readonly text: string;
      readonly taskId?: string;
      readonly executed: readonly string[];
      readonly denied: readonly string[];
    };

export type LineEventSink = (event: LineEvent) => void;
