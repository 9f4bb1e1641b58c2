import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError, parseYamlWithLineNumbers } from '../core/index.js';

/**
 * Reads a YAML file and validates it with a zod schema. Errors name the file, the line (from the
 * YAML node positions) and the field path, so a person can go straight to the mistake.
 */
export function loadYamlFile<T>(file: string, schema: z.ZodType<T>): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError('config.unreadable', `cannot read file: ${(err as Error).message}`, {
      where: file,
    });
  }
  const { doc, syntaxError, lineOf } = parseYamlWithLineNumbers(text);
  if (syntaxError) {
    throw new ConfigError('config.yaml-syntax', `YAML syntax error: ${syntaxError.message}`, {
      where: `${file}:${syntaxError.line}`,
    });
  }
  const parsed = schema.safeParse(doc.toJS() ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.') || '(root)';
  // Point at the deepest node of the path that exists in the file.
  const line = lineOf(issue.path);
  throw new ConfigError('config.invalid', `field ${field}: ${issue.message}`, {
    where: line !== undefined ? `${file}:${line}` : file,
    details: {
      file,
      field,
      line,
      issues: parsed.error.issues.map((i) => ({ path: i.path, message: i.message })),
    },
  });
}
