import { PipelineError } from './errors.js';
import { SLOTS, type Slot } from './slots.js';

/** A slot is on, or off with the reason written down. */
export type SlotSetting = { readonly on: true } | { readonly on: false; readonly reason: string };

/** The doors of Twinline, each with its own named profile. */
export const PROFILE_NAMES = [
  'serve.deep',
  'serve.quick',
  'serve.readonly',
  'agent-session',
  'stream-json',
  'host-session',
  'library',
] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** Which slots a gateway runs at one door. Pure data: built once from `BASE`, never assembled ad hoc. */
export interface PipelineProfile {
  /** `serve.quick`, or a derived name such as `check(serve.quick)` and `review-replay(serve.deep)`. */
  readonly name: string;
  /** The doors that use it, for `check --explain`. */
  readonly doors: string;
  readonly slots: Readonly<Record<Slot, SlotSetting>>;
}

const ON: SlotSetting = Object.freeze({ on: true });
const off = (reason: string): SlotSetting => Object.freeze({ on: false, reason });

/** Every slot on: what a profile switches off it must say why. */
const BASE: Readonly<Record<Slot, SlotSetting>> = Object.freeze(
  Object.fromEntries(SLOTS.map((s) => [s, ON])) as Record<Slot, SlotSetting>,
);

/** A profile from `from` with `changes` switched off; a slot `from` already has off keeps its own reason. */
function derive(
  name: string,
  doors: string,
  from: Readonly<Record<Slot, SlotSetting>>,
  changes: Partial<Record<Slot, SlotSetting>>,
): PipelineProfile {
  const slots = { ...from };
  for (const [slot, setting] of Object.entries(changes) as [Slot, SlotSetting][]) {
    if (from[slot].on) slots[slot] = setting;
  }
  return Object.freeze({ name, doors, slots: Object.freeze(slots) });
}

const NO_HOST = off(
  'no interactive approver at this door: a call that needs a person waits in the review queue (review slot)',
);
const NO_QUICK_CACHE = off('no quick-line read cache behind this door, so writes leave their full result');
const ONE_SESSION = off(
  "one caller's own session: its turn and budget limits bound it, and no shared backend is protected here",
);

const NO_HOOKS = off('no host registers hooks at this door: hooks belong to a host session (stream-json)');

const SESSION_SLOTS: Partial<Record<Slot, SlotSetting>> = {
  'rate-limit': ONE_SESSION,
  breaker: ONE_SESSION,
  fact: NO_QUICK_CACHE,
};

/** A session a person drives through its own process (run, createRuntime): no host hooks. */
const LOCAL_SESSION_SLOTS: Partial<Record<Slot, SlotSetting>> = { ...SESSION_SLOTS, hooks: NO_HOOKS };

/** The profiles of every door, derived from `BASE`. */
export const PROFILES: Readonly<Record<ProfileName, PipelineProfile>> = Object.freeze({
  'serve.deep': derive('serve.deep', 'twinline serve, createPlatform, eval: the deep line', BASE, {
    hooks: NO_HOOKS,
    approval: NO_HOST,
    'rate-limit': off('deep tasks are admitted by the deep queue, not limited per call'),
  }),
  'serve.quick': derive('serve.quick', 'twinline serve, createPlatform, eval: the quick line', BASE, {
    hooks: NO_HOOKS,
    approval: NO_HOST,
  }),
  'serve.readonly': derive(
    'serve.readonly',
    'twinline serve, createPlatform, eval: the read-only and degraded line',
    BASE,
    {
      hooks: NO_HOOKS,
      approval: NO_HOST,
      'rate-limit': off('the read-only line runs one retrieval per request'),
      fact: off('the read-only line writes nothing'),
    },
  ),
  'agent-session': derive(
    'agent-session',
    'twinline run, an AgentSession over createRuntime',
    BASE,
    LOCAL_SESSION_SLOTS,
  ),
  'stream-json': derive(
    'stream-json',
    'the stream-json engine (twinline/sdk, the Claude Agent SDK, the Qwen Code SDK) for a directory user',
    BASE,
    SESSION_SLOTS,
  ),
  'host-session': derive(
    'host-session',
    'the stream-json engine with no directory user: the local operator (tenant local, role developer, L1)',
    BASE,
    SESSION_SLOTS,
  ),
  library: derive('library', 'createRuntime(config).gateway', BASE, {
    hooks: NO_HOOKS,
    approval: off(
      'the library caller is the host: pass an access state and approval mode in the call context of an agent gateway (agent-session) instead',
    ),
    'rate-limit': off('createRuntime adds no shared limits; createPlatform does'),
    breaker: off('createRuntime adds no breakers; createPlatform does'),
    fact: NO_QUICK_CACHE,
  }),
});

/** The profile of a door; an unknown name is an error naming the known ones. */
export function profileNamed(name: string): PipelineProfile {
  const p = (PROFILES as Record<string, PipelineProfile>)[name];
  if (!p) {
    throw new PipelineError(
      'pipeline.unknown-profile',
      `unknown profile ${JSON.stringify(name)}; known: ${PROFILE_NAMES.join(', ')}`,
      { where: 'profile' },
    );
  }
  return p;
}

const DRY_RUN = off('dry run: nothing executes, so no limit, breaker or output transform applies');
const DRY_RUN_HOOKS = off('dry run: no host is attached to answer its hooks');

/** `twinline check`: the decision slots of `target`, stopping before anything that needs execution. */
export function checkProfile(target: PipelineProfile): PipelineProfile {
  return derive(`check(${target.name})`, `twinline check for ${target.doors}`, target.slots, {
    hooks: DRY_RUN_HOOKS,
    'rate-limit': DRY_RUN,
    breaker: DRY_RUN,
    quote: DRY_RUN,
    redact: DRY_RUN,
    fact: DRY_RUN,
  });
}

/**
 * Running an approved review: every slot of the door the call came from decides again, with the
 * requester's current identity and the current policy, except the review itself.
 */
export function reviewReplayProfile(target: PipelineProfile): PipelineProfile {
  return derive(
    `review-replay(${target.name})`,
    `approving a review queued by ${target.doors} (serve, twinline reviews, the console)`,
    target.slots,
    {
      review: off('a reviewer approved this call; every other slot decides again before it runs'),
      hooks: off('the host session that queued the call is gone; its hooks cannot be asked'),
      intent: off("the reviewer's approval of this very call is the user's declaration of it"),
      approval: off("the reviewer's approval is the answer an approver would give"),
      'rate-limit': off('an approved review is not a new request from its user'),
    },
  );
}
