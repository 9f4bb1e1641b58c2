import { readFileSync } from 'node:fs';
import type { Node } from 'yaml';
import { ConfigError, parseYamlWithLineNumbers, yamlPackage } from '../core/index.js';
import type { PolicySchema } from './attribute-schema.js';
import type { LineLocator } from './document-context.js';
import { PolicyEngine } from './engine.js';
import { checkPolicyDocument } from './policy-check.js';
import { parsePolicyDocument } from './policy-document.js';
import { mergePolicyDocuments } from './policy-merge.js';
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

export interface PolicyFilesOptions {
  /** The files already parsed (a build-time snapshot of the same files), instead of reading them. */
  readonly documents?: readonly PolicyDocument[];
}

/**
 * The one policy load every entry point uses: reads the config's policy files (or takes their
 * parsed snapshot), merges them strictly (`mergePolicyDocuments`) and checks the result against
 * what exists (`checkPolicyDocument`): tools, arguments and their types, the directory's
 * attributes, roles and tenants. Any problem is a `PolicyConfigError` naming file, rule, field
 * and line. Returns undefined when there are no policy files.
 */
export function loadPolicyFiles(
  files: readonly string[],
  schema: PolicySchema,
  options: PolicyFilesOptions = {},
): PolicyDocument | undefined {
  const docs = options.documents ?? files.map(loadPolicyFile);
  if (docs.length === 0) return undefined;
  const doc = mergePolicyDocuments(docs);
  checkPolicyDocument(doc, schema);
  return doc;
}

/** {@link loadPolicyFiles} compiled into an engine (undefined when there are no policy files). */
export function loadPolicyEngine(
  files: readonly string[],
  schema: PolicySchema,
  options: PolicyFilesOptions = {},
): PolicyEngine | undefined {
  const doc = loadPolicyFiles(files, schema, options);
  return doc ? new PolicyEngine(doc) : undefined;
}

/**
 * Reads and validates a reviewers file (rule-based auto-reviewers), checked against the schema
 * like a policy: a reviewer for an unknown tool, or whose condition can never hold, fails to load.
 */
export function loadReviewerFile(file: string, schema: PolicySchema): ReviewerSet {
  const { value, locate } = parseYamlWithLines(readFileText(file), file);
  return parseReviewerDocument(value, file, locate, schema);
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
