import type { Command } from 'commander';

/**
 * A CLI command module. `register` only declares options; the action imports its implementation
 * lazily so a one-shot command loads only what it needs.
 */
export interface CommandModule {
  register(program: Command): void;
}

/** Every `twinline` sub-command, in help order. Each module adds itself here with one line. */
export async function loadCommands(): Promise<CommandModule[]> {
  return [
    (await import('./demo.js')).demoCommand,
    (await import('./check.js')).checkCommand,
    (await import('./run.js')).runCommand,
    (await import('./tools.js')).toolsCommand,
    (await import('./audit.js')).auditCommand,
    (await import('./reviews.js')).reviewsCommand,
    (await import('./route.js')).routeCommand,
    (await import('./scan.js')).scanCommand,
    (await import('./watermark.js')).watermarkCommand,
    (await import('./agents.js')).agentsCommand,
    (await import('./serve.js')).serveCommand,
    (await import('./keys.js')).keysCommand,
    (await import('./tasks.js')).tasksCommand,
    (await import('./eval.js')).evalCommand,
    (await import('./canary.js')).canaryCommand,
  ];
}
