import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const OFFICE = resolve('examples/office');

/**
 * A copy of the office domain's config in a fresh temporary folder: same tools, users, policies
 * and credentials, with its own data files and SQLite store — so tests never share state.
 */
export function officeTempConfig(
  overrides: {
    model?: string;
    extra?: string;
    /** users.yaml text to use instead of the office directory. */
    users?: string;
    /** reviewers.yaml text to use instead of the office reviewers. */
    reviewers?: string;
  } = {},
): {
  dir: string;
  configFile: string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'twinline-office-'));
  let text = readFileSync(join(OFFICE, 'twinline.config.yaml'), 'utf8');
  text = text
    .replace(/module: \.\/tools\/index\.ts/, `module: ${join(OFFICE, 'tools', 'index.ts')}`)
    .replace(/weights: .*/, `weights: ${resolve('src/router/model/router-weights.json')}`)
    .replace(
      /users: \.\/users\.yaml/,
      `users: ${overrides.users === undefined ? join(OFFICE, 'users.yaml') : join(dir, 'users.yaml')}`,
    )
    .replace(/roles: \.\/roles\.yaml/, `roles: ${join(OFFICE, 'roles.yaml')}`)
    .replace(/policies: \[\.\/policies\.yaml\]/, `policies: [${join(OFFICE, 'policies.yaml')}]`)
    // the data folder: the store (twinline.sqlite), the watermark key and the office data (office/)
    .concat(`\ndataDir: ${dir}\n`);
  if (overrides.extra) text += `\n${overrides.extra}\n`;
  const configFile = join(dir, 'twinline.config.yaml');
  writeFileSync(configFile, text);
  copyFileSync(join(OFFICE, 'auth.yaml'), join(dir, 'auth.yaml'));
  if (overrides.users !== undefined) writeFileSync(join(dir, 'users.yaml'), overrides.users);
  if (overrides.reviewers !== undefined) writeFileSync(join(dir, 'reviewers.yaml'), overrides.reviewers);
  else copyFileSync(join(OFFICE, 'reviewers.yaml'), join(dir, 'reviewers.yaml'));
  return { dir, configFile, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The office users file's text, for tests that change someone's roles. */
export function officeUsersText(): string {
  return readFileSync(join(OFFICE, 'users.yaml'), 'utf8');
}
