import type { ToolKind } from '../tools/index.js';
import type { ApprovalMode } from './approval-mode.js';

/** What a mode does for a call no rule decided. Conditional cells name their condition. */
export type ModeCell =
  | 'allow'
  | 'ask'
  | 'deny'
  /** allow when read-only, else ask */
  | 'read-only-allow|ask'
  /** allow when read-only, else deny */
  | 'read-only-allow|deny'
  /** ask when read-only, else deny (untrusted read-only hints, e.g. MCP annotations in plan) */
  | 'read-only-ask|deny'
  /** auto: edits inside the project on unprotected paths allowed, else ask */
  | 'auto-edit-check'
  /** auto: read-only allowed, destructive denied, else ask */
  | 'auto-shell-check'
  /** auto: read-only or low-risk non-destructive allowed, else ask */
  | 'auto-low-risk|ask'
  /** reads: inside the project root allowed, elsewhere (home, /etc) ask */
  | 'in-project-allow|ask';

/**
 * The approval modes per tool kind. This table IS the behaviour: `decideApproval` reads it, the
 * docs print it and the tests walk it. `bubble` behaves like `default`; its asks go to the
 * parent's approver. Rules come first in every mode: deny → deny, ask → ask (even in yolo),
 * allow → allow except where plan mode blocks (plan's blocks are not overridable).
 */
export const MODE_TABLE: Readonly<Record<ToolKind, Readonly<Record<ApprovalMode, ModeCell>>>> = {
  read: {
    plan: 'in-project-allow|ask',
    default: 'in-project-allow|ask',
    'auto-edit': 'in-project-allow|ask',
    auto: 'in-project-allow|ask',
    yolo: 'allow',
    bubble: 'in-project-allow|ask',
  },
  edit: {
    plan: 'deny',
    default: 'ask',
    'auto-edit': 'allow',
    auto: 'auto-edit-check',
    yolo: 'allow',
    bubble: 'ask',
  },
  shell: {
    plan: 'read-only-allow|deny',
    default: 'read-only-allow|ask',
    'auto-edit': 'read-only-allow|ask',
    auto: 'auto-shell-check',
    yolo: 'allow',
    bubble: 'read-only-allow|ask',
  },
  fetch: { plan: 'ask', default: 'ask', 'auto-edit': 'allow', auto: 'allow', yolo: 'allow', bubble: 'ask' },
  mcp: {
    plan: 'read-only-ask|deny',
    default: 'ask',
    'auto-edit': 'ask',
    auto: 'auto-low-risk|ask',
    yolo: 'allow',
    bubble: 'ask',
  },
  agent: { plan: 'ask', default: 'ask', 'auto-edit': 'allow', auto: 'allow', yolo: 'allow', bubble: 'ask' },
  domain: {
    plan: 'read-only-allow|deny',
    default: 'read-only-allow|ask',
    'auto-edit': 'read-only-allow|ask',
    auto: 'auto-low-risk|ask',
    yolo: 'allow',
    bubble: 'read-only-allow|ask',
  },
  control: {
    plan: 'allow',
    default: 'allow',
    'auto-edit': 'allow',
    auto: 'allow',
    yolo: 'allow',
    bubble: 'allow',
  },
};

/** Cells plan mode uses to block: an allow rule does not lift these. */
export function planBlocks(cell: ModeCell, readOnly: boolean): boolean {
  return cell === 'deny' || ((cell === 'read-only-allow|deny' || cell === 'read-only-ask|deny') && !readOnly);
}
