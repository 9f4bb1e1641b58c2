import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes the scripted model the office tests share into `dir` and returns its `scripted:` model
 * name: one `calendar_list` call over 2026, then a one-line answer. The quick line replays it per
 * request.
 */
export function calendarScript(dir: string, file = 'model.json'): string {
  const script = join(dir, file);
  writeFileSync(
    script,
    JSON.stringify({
      turns: [
        { tool_calls: [{ name: 'calendar_list', arguments: { from: '2026-01-01', to: '2026-12-31' } }] },
        { text: 'You have several events this year.' },
      ],
    }),
  );
  return `scripted:${script}`;
}
