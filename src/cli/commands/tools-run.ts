import { type ConfigOption, openRuntime } from './open-runtime.js';

export interface ToolsOptions extends ConfigOption {
  readonly json?: boolean;
}

export async function runTools(opts: ToolsOptions): Promise<void> {
  const rt = await openRuntime(opts, false);
  try {
    const manifest = rt.registry.toJsonSchemaManifest();
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
      return;
    }
    const rows = manifest.map((t) =>
      [
        t.name.padEnd(24),
        t.riskLevel.padEnd(8),
        t.permissions.category.padEnd(11),
        t.permissions.requiredDataLevel.padEnd(3),
        (t.requiresReview ? 'review' : '').padEnd(7),
        t.permissions.allowedRoles.join(',') || '(no role)',
      ].join(' '),
    );
    const head = [
      'tool'.padEnd(24),
      'risk'.padEnd(8),
      'category'.padEnd(11),
      'lvl',
      ''.padEnd(7),
      'roles',
    ].join(' ');
    process.stdout.write(`${[head, ...rows].join('\n')}\n`);
  } finally {
    await rt.close();
  }
}
