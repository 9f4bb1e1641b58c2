import { describe, expect, it } from 'vitest';
import {
  applyRunVariable,
  type RunCeilings,
  type RunParameters,
  toolFilterOf,
} from '../../src/protocol/run-variables.js';

const params: RunParameters = {
  maxTurns: 25,
  maxTokens: undefined,
  maxCostUsd: undefined,
  allowedTools: undefined,
  disallowedTools: [],
  permissionTimeoutMs: 60_000,
  includePartialMessages: false,
};
const ceilings: RunCeilings = {
  maxTurns: 25,
  maxTokens: undefined,
  maxCostUsd: undefined,
  tools: new Set(['read_file', 'write_file', 'shell', 'mcp__drv__echo']),
  reportsCost: false,
  provider: 'scripted:x',
};

describe('run parameters (set_variable)', () => {
  it.each([
    ['max_turns', 3, { maxTurns: 3 }],
    ['maxTurns', 25, { maxTurns: 25 }],
    ['max_budget_tokens', 1000, { maxTokens: 1000 }],
    ['allowed_tools', ['Read', 'write_file'], { allowedTools: ['read_file', 'write_file'] }],
    ['disallowed_tools', ['Bash'], { disallowedTools: ['shell'] }],
    ['permission_timeout_ms', 5000, { permissionTimeoutMs: 5000 }],
    ['include_partial_messages', true, { includePartialMessages: true }],
  ])('%s = %j narrows', (name, value, expected) => {
    const canonical = (n: string) => ({ Read: 'read_file', Bash: 'shell' })[n] ?? n;
    expect(applyRunVariable(params, ceilings, name, value, canonical).next).toMatchObject(expected);
  });

  it.each([
    ['max_turns', 26, /at most 25/],
    ['max_turns', 0, /positive integer/],
    ['max_turns', '3', /positive integer/],
    ['allowed_tools', ['web_fetch'], /not granted: web_fetch/],
    ['max_budget_usd', 1, /does not report cost/],
    ['permission_timeout_ms', 10, /1000 to 600000/],
    ['include_partial_messages', 'yes', /true or false/],
    ['temperature', 1, /unknown variable "temperature"; known: max_turns, /],
  ])('%s = %j is refused naming why', (name, value, message) => {
    expect(() => applyRunVariable(params, ceilings, name, value)).toThrow(message);
  });

  it('a cost budget applies where the provider reports cost; null resets to the session limit', () => {
    const withCost = { ...ceilings, reportsCost: true, maxCostUsd: 2 };
    expect(applyRunVariable(params, withCost, 'max_budget_usd', 0.5).next.maxCostUsd).toBe(0.5);
    expect(() => applyRunVariable(params, withCost, 'max_budget_usd', 3)).toThrow(/at most 2/);
    const lowered = applyRunVariable(params, ceilings, 'max_turns', 2).next;
    expect(applyRunVariable(lowered, ceilings, 'max_turns', null).next.maxTurns).toBe(25);
  });

  it('the tool filter keeps what the allowed list names and drops disallowed names and server prefixes', () => {
    const f = toolFilterOf({
      ...params,
      allowedTools: ['read_file', 'mcp__drv__echo', 'shell'],
      disallowedTools: ['mcp__drv', 'shell'],
    });
    expect(['read_file', 'write_file', 'mcp__drv__echo', 'shell'].filter((t) => f?.(t))).toEqual([
      'read_file',
    ]);
    expect(toolFilterOf(params)).toBeUndefined();
  });
});
