import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { OFFICE_CONFIG_PATH } from '../config/index.js';
import { parseYamlWithLineNumbers } from '../core/index.js';
import { EvalSuiteError } from './errors.js';
import { type Scenario, suiteFileSchema } from './suite-schema.js';

/** A scenario with the file it came from. */
export interface LoadedScenario extends Scenario {
  readonly file: string;
}

/** One suite file, validated, with its paths made absolute. */
export interface LoadedSuite {
  readonly file: string;
  /** Absolute path of the Twinline config the suite names (default: the office domain). */
  readonly config: string;
  /** Absolute policy files of the misuse oracle; undefined → the policies of `config`. */
  readonly oraclePolicies: readonly string[] | undefined;
  readonly scenarios: readonly LoadedScenario[];
}

/** Expands suite arguments (files or folders of `*.yaml`/`*.yml`) and loads each file; scenario ids must be unique across them. */
export function loadSuites(paths: readonly string[]): LoadedSuite[] {
  const files: string[] = [];
  for (const p of paths) {
    const abs = resolve(p);
    let isDir: boolean;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      throw new EvalSuiteError('eval.suite-not-found', 'suite file or folder not found', { where: abs });
    }
    if (isDir) {
      const inDir = readdirSync(abs)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => join(abs, f));
      if (inDir.length === 0) {
        throw new EvalSuiteError('eval.suite-empty', 'folder holds no .yaml suite files', { where: abs });
      }
      files.push(...inDir);
    } else files.push(abs);
  }
  const suites = files.map((f) => loadSuiteFile(f));
  const seen = new Map<string, string>();
  for (const s of suites) {
    for (const sc of s.scenarios) {
      const other = seen.get(sc.id);
      if (other) {
        throw new EvalSuiteError('eval.duplicate-id', `scenario ${sc.id}: field id: also used in ${other}`, {
          where: s.file,
          details: { file: s.file, scenario: sc.id, field: 'id' },
        });
      }
      seen.set(sc.id, s.file);
    }
  }
  return suites;
}

/** Loads one suite file. Errors name the file, line, scenario (id, else index) and field. */
export function loadSuiteFile(file: string): LoadedSuite {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new EvalSuiteError('eval.suite-unreadable', `cannot read suite: ${(err as Error).message}`, {
      where: file,
    });
  }
  const { doc, syntaxError, lineOf } = parseYamlWithLineNumbers(text);
  if (syntaxError) {
    throw new EvalSuiteError('eval.yaml-syntax', `YAML syntax error: ${syntaxError.message}`, {
      where: `${file}:${syntaxError.line}`,
      details: { file, line: syntaxError.line },
    });
  }
  const raw = doc.toJS() ?? {};
  const parsed = suiteFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    let scenario: string | undefined;
    let fieldPath = path;
    if (path[0] === 'scenarios' && typeof path[1] === 'number') {
      const entry = (raw as { scenarios?: unknown[] }).scenarios?.[path[1]] as { id?: unknown } | undefined;
      scenario = typeof entry?.id === 'string' ? entry.id : `#${path[1]}`;
      fieldPath = path.slice(2);
    }
    const field = fieldPath.map(String).join('.') || '(root)';
    const line = lineOf(path);
    const where = line !== undefined ? `${file}:${line}` : file;
    const prefix = scenario !== undefined ? `scenario ${scenario}: ` : '';
    throw new EvalSuiteError('eval.suite-invalid', `${prefix}field ${field}: ${issue.message}`, {
      where,
      details: { file, line, scenario, field },
    });
  }
  const dir = dirname(file);
  const data = parsed.data;
  return {
    file,
    config: data.config ? resolve(dir, data.config) : OFFICE_CONFIG_PATH,
    oraclePolicies: data.oracle?.policies.map((p) => resolve(dir, p)),
    scenarios: data.scenarios.map((s) => ({ ...s, file })),
  };
}
