import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const OFFICE = resolve(import.meta.dirname, '../../examples/office');

/**
 * Writes the office domain's config into `dir` with every path absolute: the examples' tools,
 * users, roles and policies, the data and store inside `dir`. Returns the config file's path.
 * `reviewers` (YAML text) goes beside it as reviewers.yaml; `users` replaces the directory.
 */
export function writeOfficeConfig(dir: string, opts: { reviewers?: string; users?: string } = {}): string {
  const file = join(dir, 'twinline.config.yaml');
  const usersFile = opts.users === undefined ? join(OFFICE, 'users.yaml') : join(dir, 'users.yaml');
  if (opts.users !== undefined) writeFileSync(usersFile, opts.users);
  const text = readFileSync(join(OFFICE, 'twinline.config.yaml'), 'utf8')
    .replace('module: ./tools/index.ts', `module: ${join(OFFICE, 'tools/index.ts')}`)
    .replace('dataDir: .twinline/office', `dataDir: ${join(dir, 'office')}`)
    .replace('users: ./users.yaml', `users: ${usersFile}`)
    .replace('roles: ./roles.yaml', `roles: ${join(OFFICE, 'roles.yaml')}`)
    .replace(/^policies:.*$/m, `policies: [${join(OFFICE, 'policies.yaml')}]`)
    .replace('sqlite: .twinline/twinline.sqlite', `sqlite: ${join(dir, 'twinline.sqlite')}`);
  writeFileSync(file, text);
  if (opts.reviewers !== undefined) writeFileSync(join(dir, 'reviewers.yaml'), opts.reviewers);
  else copyFileSync(join(OFFICE, 'reviewers.yaml'), join(dir, 'reviewers.yaml'));
  return file;
}

/** The office users file's text, for tests that change someone's roles. */
export function officeUsersText(): string {
  return readFileSync(join(OFFICE, 'users.yaml'), 'utf8');
}
