import { describe, expect, it } from 'vitest';
import { decide } from '../../src/core/index.js';
import type { GatewayResult } from '../../src/gateway/index.js';
import {
  gatewayStep,
  isFinished,
  MAX_REVISIONS,
  reviewedStep,
  shouldRevise,
  stepLine,
  stepStart,
} from '../../src/lines/deep/step-machine.js';
import type { StepRecord } from '../../src/store/index.js';
import type { ToolSpec } from '../../src/tools/index.js';
import { ExecutionLog, READ, sampleTools } from '../gateway/sample-tools.js';

// The deep line's step state machine: pure decisions over typed records.

const echo = sampleTools(new ExecutionLog()).find((t) => t.name === 'echo')!;
const tool = (annotations: Partial<ToolSpec['annotations']>): ToolSpec => ({
  ...echo,
  annotations: { ...READ, ...annotations },
});
const step = { goal: 'Say it', tool: 'echo', args: { text: 'hi' } };
const record = (status: StepRecord['status']): StepRecord => ({
  taskId: 't',
  stepNo: 1,
  status,
  goal: step.goal,
  paramsValidated: false,
});
const allowed = new Set(['echo']);

describe('stepStart: may a step run', () => {
  it.each([
    ['a read-only step', tool({}), undefined, allowed, { run: true }],
    ['a read-only step the process died in', tool({}), record('running'), allowed, { run: true }],
    [
      'a side effect not yet started',
      tool({ readOnly: false, idempotent: false }),
      record('pending'),
      allowed,
      { run: true },
    ],
    [
      'an idempotent side effect the process died in',
      tool({ readOnly: false, idempotent: true }),
      record('running'),
      allowed,
      { run: true },
    ],
    [
      'a side effect the process died in',
      tool({ readOnly: false, idempotent: false }),
      record('running'),
      allowed,
      { run: false, status: 'skipped', error: expect.stringMatching(/at most once/) },
    ],
    [
      'a tool off the allowlist',
      tool({}),
      undefined,
      new Set<string>(),
      { run: false, status: 'failed', error: 'Tool echo is not available on the deep line.' },
    ],
    [
      'an unknown tool the process died in (it may have had effects)',
      undefined,
      record('running'),
      allowed,
      { run: false, status: 'skipped', error: expect.stringMatching(/at most once/) },
    ],
  ] as const)('%s', (_name, spec, rec, allow, expected) => {
    expect(stepStart(step, rec, spec, allow)).toEqual(expected);
  });
});

describe('gatewayStep and stepLine', () => {
  const result = (r: Partial<GatewayResult>): GatewayResult => ({
    callId: 'c',
    tool: 'echo',
    status: 'executed',
    decision: decide('allow', 'policy', 'p', 'ok'),
    path: [],
    modelContent: 'ok',
    durationMs: 1,
    auditId: 'a',
    ...r,
  });

  it('an executed call is done with its summary, and its line says so', () => {
    const s = gatewayStep(step, result({ output: { rows: [{ n: 1 }, { n: 2 }] } }));
    expect(s).toMatchObject({
      status: 'done',
      summary: { goal: 'Say it', keyData: '2 rows (n); n total 3' },
    });
    if (s.status === 'done')
      expect(stepLine(3, step, 'done', s)).toBe('#3 echo [done] Say it → 2 rows (n); n total 3');
  });

  it('a call sent to review names its review', () => {
    expect(gatewayStep(step, result({ status: 'review', reviewId: 'r1', modelContent: 'waits' }))).toEqual({
      status: 'review',
      reviewId: 'r1',
      message: 'waits',
    });
  });

  it.each(['denied', 'failed', 'timeout'] as const)(
    'a %s call fails with what the model was told',
    (status) => {
      const s = gatewayStep(step, result({ status, modelContent: 'no' }));
      expect(s).toEqual({ status: 'failed', error: `${status}: no` });
      if (s.status === 'failed')
        expect(stepLine(2, step, 'failed', s)).toBe(`#2 echo [failed] Say it → ${status}: no`);
    },
  );
});

describe('revision, finished records and reviewed steps', () => {
  it.each([
    ['failed', 0, true, true],
    ['failed', MAX_REVISIONS - 1, true, true],
    ['failed', MAX_REVISIONS, true, false],
    ['failed', 0, false, false],
    ['done', 0, true, false],
    ['skipped', 0, true, false],
  ] as const)(
    'a %s step after %i revisions (planner revises: %s) → revise %s',
    (status, n, can, expected) => {
      expect(shouldRevise({ status, summary: '' }, n, can)).toBe(expected);
    },
  );

  it.each([
    ['pending', false],
    ['running', false],
    ['done', true],
    ['failed', true],
    ['skipped', true],
  ] as const)('a %s record is finished: %s', (status, expected) => {
    expect(isFinished(record(status))).toBe(expected);
  });

  it('a reviewed step is done with the call result, or failed with how the review ended', () => {
    expect(reviewedStep(2, step, { status: 'executed', summary: 'ok {rows[1]}' })).toEqual({
      status: 'done',
      outputSummary: '#2 echo [done] Say it → ok {rows[1]}',
    });
    expect(reviewedStep(2, step, { status: 'denied', summary: 'not today' })).toEqual({
      status: 'failed',
      error: 'review denied: not today',
    });
  });
});
