import { describe, expect, it } from 'vitest';
import {
  isStreamJsonInvocation,
  parseStreamJsonArgs,
  resolvePermissionMode,
} from '../../src/protocol/index.js';

describe('stream-json argv', () => {
  it('parses Claude 0.3.x argv (--flag=value, empty values, unknown flags)', () => {
    const o = parseStreamJsonArgs([
      '--output-format',
      'stream-json',
      '--verbose',
      '--input-format',
      'stream-json',
      '--max-turns=3',
      '--model=fake-model-1',
      '--permission-prompt-tool=stdio',
      '--allowedTools=Read',
      '--disallowedTools=WebFetch,write_file',
      '--mcp-config',
      '{"mcpServers":{}}',
      '--setting-sources=',
      '--permission-mode=acceptEdits',
      '--custom-flag',
      '--custom-value=-starts-with-dash',
      '--settings',
      '{"env":{"FOO":"1"}}',
    ]);
    expect(o).toMatchObject({
      dialect: 'claude',
      model: 'fake-model-1',
      maxTurns: 3,
      promptHost: true,
      verbose: true,
      permissionMode: 'acceptEdits',
      allowedTools: ['Read'],
      disallowedTools: ['WebFetch', 'write_file'],
    });
    expect(o.ignored).toEqual(
      expect.arrayContaining(['mcp-config', 'setting-sources', 'custom-flag', 'custom-value', 'settings']),
    );
  });

  it('parses Claude 0.1.x argv (--flag value, empty value)', () => {
    const o = parseStreamJsonArgs([
      '--output-format',
      'stream-json',
      '--verbose',
      '--input-format',
      'stream-json',
      '--model',
      'm1',
      '--permission-prompt-tool',
      'stdio',
      '--setting-sources',
      '',
      '--permission-mode',
      'default',
    ]);
    expect(o).toMatchObject({ dialect: 'claude', model: 'm1', promptHost: true, permissionMode: 'default' });
  });

  it('parses Qwen argv and adopts its session id', () => {
    const o = parseStreamJsonArgs([
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--channel=SDK',
      '--model',
      'fake-model',
      '--approval-mode',
      'auto-edit',
      '--auth-type',
      'openai',
      '--session-id',
      '00d18f55-b512-434f-a1bb-afea93a609a7',
      '--max-session-turns',
      '4',
      '--exclude-tools',
      'shell',
    ]);
    expect(o).toMatchObject({
      dialect: 'qwen',
      promptHost: true,
      model: 'fake-model',
      permissionMode: 'auto-edit',
      sessionId: '00d18f55-b512-434f-a1bb-afea93a609a7',
      maxTurns: 4,
      disallowedTools: ['shell'],
    });
  });

  it('does not prompt a Claude host that gave no --permission-prompt-tool', () => {
    expect(parseStreamJsonArgs(['--input-format=stream-json']).promptHost).toBe(false);
  });

  it('refuses a bad --max-turns and a non stream-json format', () => {
    expect(() => parseStreamJsonArgs(['--max-turns=abc'])).toThrow(/--max-turns/);
    expect(() => parseStreamJsonArgs(['--input-format', 'text'])).toThrow(/stream-json/);
  });

  it('detects stream-json invocations in both flag forms', () => {
    expect(isStreamJsonInvocation(['node', 'x', '--input-format', 'stream-json'])).toBe(true);
    expect(isStreamJsonInvocation(['node', 'x', '--output-format=stream-json'])).toBe(true);
    expect(isStreamJsonInvocation(['node', 'x', 'check', '--json'])).toBe(false);
  });

  const modes: [string, string | undefined, string | undefined][] = [
    ['default', 'default', 'default'],
    ['acceptEdits', 'auto-edit', 'acceptEdits'],
    ['bypassPermissions', 'yolo', 'bypassPermissions'],
    ['plan', 'plan', 'plan'],
    ['dontAsk', 'default', 'dontAsk'],
    ['auto', 'auto', 'auto'],
    ['auto-edit', 'auto-edit', 'auto-edit'],
    ['yolo', 'yolo', 'yolo'],
    ['bubble', undefined, undefined],
    ['root', undefined, undefined],
  ];
  it.each(modes)('permission mode %s → %s', (name, approvalMode, reported) => {
    const r = resolvePermissionMode(name);
    expect(r?.approvalMode).toBe(approvalMode);
    expect(r?.reported).toBe(reported);
  });
});
