import { z } from 'zod';
import type { ToolSpec } from '../../tools/index.js';
import type { AgentFrame } from '../agent-frame.js';
import { UnknownTaskError } from '../errors.js';
import { eventSource } from '../event-source.js';
import { callerFrame } from '../frame-context.js';
import { type ControlToolOptions, controlTool } from './control-manifest.js';

const input = z.object({
  to: z.string().min(1).max(200).describe('"coordinator", or a teammate\'s agent id or name.'),
  text: z.string().min(1).max(10_000),
});

/**
 * Sends a message to the coordinator or a live agent of the same session. It arrives in the
 * recipient's next turn as quoted data, never as instructions with authority.
 */
export function sendMessageTool(opts: ControlToolOptions): ToolSpec<z.infer<typeof input>> {
  return controlTool(opts, {
    name: 'send_message',
    description: 'Send a message to the coordinator or to a teammate.',
    inputSchema: input,
    async execute(args, ctx) {
      const frame = callerFrame(ctx, 'send_message');
      const target = recipient(frame, args.to);
      target.inbox.push({ from: frame.id, text: args.text });
      frame.runtime.bus.emit({
        ...eventSource(frame),
        type: 'message',
        from: frame.id,
        to: target.id,
        text: args.text,
      });
      return { delivered: true, to: target.id };
    },
  });
}

function recipient(frame: AgentFrame, to: string): AgentFrame {
  if (to === 'coordinator' || to === 'main' || to === 'lead') return frame.root();
  const frames = frame.runtime.frames;
  const byId = frames.get(to);
  if (byId) return byId;
  const byName = [...frames.values()].filter((f) => f.name === to && f !== frame);
  if (byName.length === 1) return byName[0]!;
  throw new UnknownTaskError('send_message', to);
}
