import { describe, expect, it } from 'vitest';
import { type AgentEvent, AgentEventBus } from '../../src/agent/index.js';

const src = { sessionId: 's', agentId: 'main', agent: 'main', depth: 0 };
const turnStart = { ...src, type: 'turn_start', turn: 1 } as AgentEvent;
const delta = { ...src, type: 'text_delta', text: 'hi' } as AgentEvent;

describe('AgentEventBus', () => {
  it('gives a typed listener only its types, and wants only what some listener takes', () => {
    const bus = new AgentEventBus();
    expect(bus.wants('turn_start')).toBe(false);
    const typed: string[] = [];
    const offTyped = bus.on((e) => typed.push(e.type), { types: ['turn_start'] });
    expect(bus.wants('turn_start')).toBe(true);
    expect(bus.wants('text_delta')).toBe(false);
    bus.emit(turnStart);
    bus.emit(delta);
    expect(typed).toEqual(['turn_start']);
    const all: string[] = [];
    const offAll = bus.on((e) => all.push(e.type));
    expect(bus.wants('text_delta')).toBe(true);
    bus.emit(delta);
    expect(all).toEqual(['text_delta']);
    offAll();
    expect(bus.wants('text_delta')).toBe(false);
    offTyped();
    expect(bus.wants('turn_start')).toBe(false);
  });
});
