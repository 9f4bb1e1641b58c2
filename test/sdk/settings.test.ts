import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TwinlineAgent } from '../../src/sdk/index.js';
import {
  allowOneDenyOneScript,
  assertBuilt,
  engineEnv,
  fileText,
  TWINLINE_BIN,
  workspace,
} from '../protocol/sdk-harness.js';

const agents: TwinlineAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.close()));
});

describe('stream-json engine reads the folder’s settings', () => {
  beforeAll(assertBuilt);

  it('a user-level deny rule holds even when the host allows the call', async () => {
    const home = mkdtempSync(join(tmpdir(), 'twinline-home-'));
    mkdirSync(join(home, '.twinline'));
    writeFileSync(
      join(home, '.twinline', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['write_file(denied.txt)'] } }),
    );
    const { dir, model } = workspace(allowOneDenyOneScript());
    const a = new TwinlineAgent({
      executable: TWINLINE_BIN,
      env: engineEnv({ HOME: home }),
      cwd: dir,
      model,
    });
    agents.push(a);
    const asked: string[] = [];
    a.on('permission_request', async (req) => {
      asked.push((req.input as { path: string }).path);
      return 'allow' as const;
    });
    for await (const _ of a.run('write the files')) {
      // drain
    }
    expect(fileText(dir, 'allowed.txt')).toBe('written');
    // The settings rule denied it before the host was even asked.
    expect(fileText(dir, 'denied.txt')).toBeUndefined();
    expect(asked).toEqual(['allowed.txt']);
  });
});
