import { readFileSync } from 'node:fs';
import type { Node } from 'yaml';
import { ConfigError, parseYamlWithLineNumbers, yamlPackage } from '../core/index.js';
import type { LineLocator } from './document-context.js';
import { PolicyEngine } from './engine.js';
import { parsePolicyDocument } from './policy-document.js';
import { mergePolicyDocuments } from './policy-stages.js';
import { parseReviewerDocument, type ReviewerSet } from './review/reviewer-document.js';
import type { PolicyDocument } from './types.js';

/** Parses YAML text and returns its plain value plus a locator from document paths to lines. */
export function parseYamlWithLines(text: string, file: string): { value: unknown; locate: LineLocator } {
  const { isMap, isSeq } = yamlPackage();
  const { doc, syntaxError, lineAt } = parseYamlWithLineNumbers(text);
  if (syntaxError) {
    throw new ConfigError('policy.yaml', syntaxError.message, { where: `${file}:${syntaxError.line}` });
  }
  const locate: LineLocator = (path) => {
    let node: unknown = doc.contents;
    for (const key of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
        if (!pair) return undefined;
        node = pair.value ?? pair.key;
        if (key === path[path.length - 1] && pair.key) node = pair.key;
      } else if (isSeq(node) && typeof key === 'number') node = node.items[key];
      else return undefined;
    }
    const range = (node as Node | undefined)?.range;
    return range ? lineAt(range[0]) : undefined;
  };
  return { value: doc.toJS(), locate };
}

/** Parses policy YAML text (the file name is used in error messages). */
export function parsePolicyYaml(text: string, file: string): PolicyDocument {
  const { value, locate } = parseYamlWithLines(text, file);
  return parsePolicyDocument(value, file, locate);
}

/** Reads and validates a policy file. Errors name the file, the rule id, the field and the line. */
export function loadPolicyFile(file: string): PolicyDocument {
  return parsePolicyYaml(readFileText(file), file);
}

/** Reads several policy files (config `policies:`) as one document. */
export function loadPolicyFiles(files: readonly string[]): PolicyDocument {
  return mergePolicyDocuments(files.map(loadPolicyFile));
}

/** Reads a policy file and compiles it into an engine. */
export function loadPolicyEngine(file: string): PolicyEngine {
  return new PolicyEngine(loadPolicyFile(file));
}

/** Reads and validates a reviewers file (rule-based auto-reviewers). */
export function loadReviewerFile(file: string): ReviewerSet {
  const { value, locate } = parseYamlWithLines(readFileText(file), file);
  return parseReviewerDocument(value, file, locate);
}

function readFileText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError('policy.unreadable', `cannot read policy file: ${(err as Error).message}`, {
      where: file,
      cause: err,
    });
  }
}
