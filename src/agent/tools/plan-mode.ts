import { z } from 'zod';
import type { ToolSpec } from '../../tools/index.js';
import { callerFrame } from '../frame-context.js';
import { type ControlToolOptions, controlTool } from './control-manifest.js';

const enterInput = z.object({ reason: z.string().max(2000).optional() });
const exitInput = z.object({ plan: z.string().min(1).max(20_000) });

/** Switches the calling agent to `plan` mode (read-only calls until the plan is accepted). */
export function enterPlanModeTool(opts: ControlToolOptions): ToolSpec<z.infer<typeof enterInput>> {
  return controlTool(opts, {
    name: 'enter_plan_mode',
    description: 'Switch to plan mode: explore read-only and propose a plan before changing anything.',
    inputSchema: enterInput,
    async execute(_args, ctx) {
      const frame = callerFrame(ctx, 'enter_plan_mode');
      if (frame.approvalMode !== 'plan') {
        frame.modeBeforePlan = frame.approvalMode;
        frame.approvalMode = 'plan';
      }
      return { approvalMode: frame.approvalMode };
    },
  });
}

/**
 * Leaves plan mode with a plan. The approval stage decides whether a person must accept it
 * (approval modes ask for it); the mode returns to what it was before plan mode, never higher.
 */
export function exitPlanModeTool(opts: ControlToolOptions): ToolSpec<z.infer<typeof exitInput>> {
  return controlTool(opts, {
    name: 'exit_plan_mode',
    description: 'Present the plan and leave plan mode.',
    inputSchema: exitInput,
    async execute(args, ctx) {
      const frame = callerFrame(ctx, 'exit_plan_mode');
      if (frame.approvalMode === 'plan') {
        frame.approvalMode = frame.modeBeforePlan ?? 'default';
        frame.modeBeforePlan = undefined;
      }
      return { approvalMode: frame.approvalMode, plan: args.plan };
    },
  });
}
