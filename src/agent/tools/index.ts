import type { ToolSpec } from '../../tools/index.js';
import { agentTool } from './agent-tool.js';
import { askUserTool } from './ask-user.js';
import { backgroundTaskTools } from './background-task-tools.js';
import type { ControlToolOptions } from './control-manifest.js';
import { execTool } from './exec.js';
import { enterPlanModeTool, exitPlanModeTool } from './plan-mode.js';
import { sendMessageTool } from './send-message.js';
import { teamTaskTools } from './team-tasks.js';
import { todoWriteTool } from './todo-write.js';
import { toolCallTool, toolSearchTool } from './tool-bridge.js';

export type { ControlToolOptions } from './control-manifest.js';

/**
 * Every control tool as a manifest, to register in the tool registry beside the domain and
 * workspace tools. They run only through the gateway like any other tool.
 */
export function createControlTools(opts: ControlToolOptions): ToolSpec[] {
  return [
    askUserTool(opts),
    agentTool(opts),
    enterPlanModeTool(opts),
    exitPlanModeTool(opts),
    todoWriteTool(opts),
    ...teamTaskTools(opts),
    ...backgroundTaskTools(opts),
    sendMessageTool(opts),
    toolSearchTool(opts),
    toolCallTool(opts),
    execTool(opts),
  ];
}

export { DEFAULT_EXEC_LIMITS, type ExecLimits } from './exec.js';
export {
  agentTool,
  askUserTool,
  backgroundTaskTools,
  enterPlanModeTool,
  execTool,
  exitPlanModeTool,
  sendMessageTool,
  teamTaskTools,
  todoWriteTool,
  toolCallTool,
  toolSearchTool,
};
