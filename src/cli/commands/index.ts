import { agentsCommand } from './agents.js';
import { auditCommand } from './audit.js';
import { canaryCommand } from './canary.js';
import { checkCommand } from './check.js';
import type { CommandModule } from './command-module.js';
import { completionCommand } from './completion.js';
import { demoCommand } from './demo.js';
import { doctorCommand } from './doctor.js';
import { evalCommand } from './eval.js';
import { keysCommand } from './keys.js';
import { reviewsCommand } from './reviews.js';
import { routeCommand } from './route.js';
import { routerCommand } from './router.js';
import { runCommand } from './run.js';
import { scanCommand } from './scan.js';
import { serveCommand } from './serve.js';
import { tasksCommand } from './tasks.js';
import { toolsCommand } from './tools.js';
import { watermarkCommand } from './watermark.js';

export type { CommandModule } from './command-module.js';

/**
 * Every `twinline` sub-command, in help order. Each module adds itself here with one line. The
 * modules only declare options (their actions import the implementation), so they are imported
 * statically: one chunk instead of fifteen sequential loads at start-up.
 */
export const COMMANDS: readonly CommandModule[] = [
  demoCommand,
  checkCommand,
  runCommand,
  toolsCommand,
  auditCommand,
  reviewsCommand,
  routeCommand,
  routerCommand,
  scanCommand,
  watermarkCommand,
  agentsCommand,
  serveCommand,
  keysCommand,
  tasksCommand,
  evalCommand,
  canaryCommand,
  doctorCommand,
  completionCommand,
];
