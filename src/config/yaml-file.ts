import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError, yamlPackage } from '../core/index.js';

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
  const { isNode, LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const at = lines.linePos(yamlError.pos[0]);
    throw new ConfigError('config.yaml-syntax', `YAML syntax error: ${yamlError.message.split('\n')[0]}`, {
      where: `${file}:${at.line}`,
    });
  }
  const parsed = schema.safeParse(doc.toJS() ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.') || '(root)';
  // Point at the deepest node of the path that exists in the file.
  let line: number | undefined;
  for (let depth = issue.path.length; depth >= 0 && line === undefined; depth--) {
    const node = doc.getIn(issue.path.slice(0, depth) as (string | number)[], true);
    if (isNode(node) && node.range) line = lines.linePos(node.range[0]).line;
  }
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
