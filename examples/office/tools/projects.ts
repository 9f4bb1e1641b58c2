import { z } from 'zod';
import type { ToolSpec } from '../../../src/tools/index.js';
import { DESTRUCTIVE, projectName } from './common.js';
import type { OfficeData } from './tenant-data.js';

/** Project configuration changes: high risk, destructive, runs only after review. */
export function projectTools(data: OfficeData): ToolSpec[] {
  const update: ToolSpec<{ project: string; key: string; value: string }> = {
    name: 'project_config_update',
    description: 'Set one configuration key of a project (overwrites the previous value).',
    inputSchema: z.strictObject({
      project: projectName,
      key: z.string().regex(/^[a-z][a-z0-9_.]{0,63}$/, 'a config key such as deploy.region'),
      value: z.string().max(200),
    }),
    annotations: DESTRUCTIVE,
    riskLevel: 'high',
    // Not 设置 / "setting" alone: 设置一下会议提醒 (set a meeting reminder) is no config change.
    intentKeywords: ['配置', '项目设置', 'config', 'configuration', 'project settings'],
    permissions: { allowedRoles: ['project_admin'], requiredDataLevel: 'L3', category: 'projects' },
    requiresReview: true,
    timeoutMs: 5000,
    kind: 'domain',
    dataScopes: ['projects'],
    async execute(args, ctx) {
      const db = data.forTenant(ctx.identity);
      const known = db.prepare('SELECT 1 FROM project_configs WHERE project = ? LIMIT 1').get(args.project);
      if (!known) throw new Error(`no project ${args.project}`);
      const before = db
        .prepare('SELECT value FROM project_configs WHERE project = ? AND key = ?')
        .get(args.project, args.key) as { value: string } | undefined;
      db.prepare(
        'INSERT INTO project_configs (project, key, value) VALUES (?, ?, ?) ON CONFLICT (project, key) DO UPDATE SET value = excluded.value',
      ).run(args.project, args.key, args.value);
      return { project: args.project, key: args.key, previous: before?.value ?? null, value: args.value };
    },
  };
  return [update];
}
