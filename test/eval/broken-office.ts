import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';

const OFFICE = resolve('examples/office');

/**
 * A copy of the office config whose policy is deliberately broken the way a hurried edit breaks
 * one: employees are granted the projects and finance categories, and the rules that kept
 * employees to their own attendance and sales managers to their own region are gone — an allow
 * that reaches too far.
 */
export function brokenOfficeConfig(): { configFile: string; policiesFile: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-broken-'));
  const policy = parse(readFileSync(join(OFFICE, 'policies.yaml'), 'utf8')) as {
    grants: Record<string, string[]>;
    rules: { id: string }[];
  };
  policy.grants.employee = [...(policy.grants.employee ?? []), 'projects', 'finance'];
  policy.rules = policy.rules.filter(
    (r) => r.id !== 'attendance.employee-self-only' && r.id !== 'sales.manager-own-region',
  );
  const policiesFile = join(dir, 'policies.yaml');
  writeFileSync(policiesFile, stringify(policy));
  let text = readFileSync(join(OFFICE, 'twinline.config.yaml'), 'utf8');
  text = text
    .replace(/module: \.\/tools\/index\.ts/, `module: ${join(OFFICE, 'tools', 'index.ts')}`)
    .replace(/users: \.\/users\.yaml/, `users: ${join(OFFICE, 'users.yaml')}`)
    .replace(/roles: \.\/roles\.yaml/, `roles: ${join(OFFICE, 'roles.yaml')}`)
    .replace(/policies: \[\.\/policies\.yaml\]/, `policies: [${policiesFile}]`)
    .replace(/weights: .*/, `weights: ${join(OFFICE, '../../src/router/model/router-weights.json')}`)
    .concat(`\ndataDir: ${dir}\n`);
  const configFile = join(dir, 'twinline.config.yaml');
  writeFileSync(configFile, text);
  copyFileSync(join(OFFICE, 'auth.yaml'), join(dir, 'auth.yaml'));
  copyFileSync(join(OFFICE, 'reviewers.yaml'), join(dir, 'reviewers.yaml'));
  return { configFile, policiesFile, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
