import type { EffectiveSlot } from './pipeline.js';
import type { PipelineProfile } from './profiles.js';
import { SLOT_PURPOSE } from './slots.js';

/** The lines `twinline check --explain` prints: the profile, then every slot, on or off and why. */
export function explainLines(profile: PipelineProfile, slots: readonly EffectiveSlot[]): string[] {
  const width = Math.max(...slots.map((s) => s.slot.length));
  return [
    `profile: ${profile.name} (${profile.doors})`,
    'slots:',
    ...slots.map((s) =>
      s.on
        ? `  ${s.slot.padEnd(width)}  on   ${s.stage}: ${s.note ?? SLOT_PURPOSE[s.slot]}`
        : `  ${s.slot.padEnd(width)}  off  ${s.reason}`,
    ),
  ];
}
