import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * What of `/etc` a sandbox shows: dynamic linker, name-service and locale files, time zone,
 * certificates and Debian's `alternatives` links — and nothing with secrets (`shadow`, `sudoers`,
 * `ssh/`, `ssl/private/`). `passwd`/`group` are the sandbox's own.
 */
export const ETC_FILES: readonly string[] = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/nsswitch.conf',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/hosts',
  '/etc/host.conf',
  '/etc/ssl/certs',
  '/etc/ssl/openssl.cnf',
  '/etc/ca-certificates',
  '/etc/gitconfig',
  '/etc/magic',
  '/etc/magic.mime',
  '/etc/mime.types',
  '/etc/protocols',
  '/etc/services',
  '/etc/terminfo',
  '/etc/inputrc',
  '/etc/locale.alias',
  '/etc/locale.conf',
  '/etc/os-release',
  '/etc/debian_version',
];

let etcDir: string | undefined;

/**
 * The sandbox's `/etc`, built once per process in a private folder: copies of {@link ETC_FILES}
 * (symbolic links kept as links), its own `passwd` and `group` (the caller's ids, home in the
 * private `/tmp`) and `mtab`. One mount instead of one per file: each bind costs a sandbox start
 * about 0.1 ms (bench/sandbox.ts). A file changed on the host later is not seen until restart.
 */
export function sandboxEtc(): string {
  if (etcDir) return etcDir;
  const base = mkdtempSync(join(tmpdir(), 'twinline-sandbox-'));
  const dir = join(base, 'etc');
  mkdirSync(dir);
  for (const file of ETC_FILES) {
    const target = join(dir, file.slice('/etc/'.length));
    try {
      mkdirSync(dirname(target), { recursive: true });
      cpSync(file, target, { recursive: true, verbatimSymlinks: true, force: true });
    } catch {
      // absent here, or not readable: the sandbox goes without it
    }
  }
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const name = uid === 0 ? 'root' : 'sandbox';
  writeFileSync(
    join(dir, 'passwd'),
    `${name}:x:${uid}:${gid}:${name}:/tmp:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
  );
  writeFileSync(join(dir, 'group'), `${name}:x:${gid}:\nnogroup:x:65534:\n`);
  symlinkSync('../proc/self/mounts', join(dir, 'mtab'));
  process.once('exit', () => rmSync(base, { recursive: true, force: true }));
  etcDir = dir;
  return dir;
}
