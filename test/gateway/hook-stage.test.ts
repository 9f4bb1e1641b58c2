import { describe, expect, it } from 'vitest';
import { hookDecision } from '../../src/gateway/stages/hook-stage.js';

describe('hookDecision: a host hook only makes a call stricter', () => {
  it.each([
    [undefined, 'allow', 'hook.none'],
    [{ verdict: 'allow' as const }, 'allow', 'hook.allow'],
    [{ verdict: 'ask' as const, reason: 'check' }, 'ask', 'hook.ask'],
    [{ verdict: 'deny' as const, reason: 'no' }, 'deny', 'hook.deny'],
  ])('%j → %s', (answer, verdict, ruleId) => {
    const d = hookDecision(answer, 'write_file');
    expect(d).toMatchObject({ verdict, ruleId, stage: 'hooks' });
    expect(d.reenter).toBeUndefined();
  });

  it('an edit is a new call: decided again from the first slot, standing on allow or ask here', () => {
    const edit = hookDecision({ verdict: 'allow', updatedArgs: { path: 'x' } }, 'write_file');
    expect(edit).toMatchObject({ verdict: 'allow', ruleId: 'hook.edited-input', updatedArgs: { path: 'x' } });
    expect(edit.reenter).toMatchObject({ verdict: 'allow', ruleId: 'hook.allow' });
    const askEdit = hookDecision({ verdict: 'ask', updatedArgs: { path: 'x' } }, 'write_file');
    expect(askEdit.reenter).toMatchObject({ verdict: 'ask', ruleId: 'hook.ask' });
    // a deny with an edit is still a deny: nothing is re-decided
    expect(hookDecision({ verdict: 'deny', updatedArgs: { path: 'x' } }, 'write_file')).toMatchObject({
      verdict: 'deny',
    });
  });
});
