/**
 * Turns recogniser hits into one score. A hand-set logistic model: each attack type contributes
 * its strongest hit (plus a little for corroborating hits of other recognisers of that type),
 * weighted per channel, plus interaction terms for combinations that are far more telling than
 * their parts (a persona AND a harmful ask; a tool instruction AND text addressing the assistant).
 * Weights are documented in docs/gates.md; they were set by hand on our own examples.
 */
import type { InjectionType } from './recognisers.js';

export const CHANNELS = ['user_input', 'tool_output'] as const;
export type Channel = (typeof CHANNELS)[number];

export type ChannelWeights = Readonly<Record<InjectionType, number>>;

/**
 * A user legitimately asks the assistant to send mail, use tools and shape its answer, so those
 * signals weigh little in `user_input`; in `tool_output` the same words are data giving orders.
 */
export const CHANNEL_WEIGHTS: Readonly<Record<Channel, ChannelWeights>> = {
  user_input: {
    instruction_override: 1,
    role_claim: 1,
    prompt_extraction: 1,
    jailbreak: 1,
    roleplay: 1,
    harmful_request: 0.6,
    addressed_to_assistant: 0.4,
    response_manipulation: 0.15,
    hidden_tool_instruction: 0.1,
    exfiltration: 0.25,
    sensitive_object: 0.2,
    imperative_in_data: 0,
    encoded_payload: 1,
  },
  tool_output: {
    instruction_override: 1,
    role_claim: 1,
    prompt_extraction: 1,
    jailbreak: 0.9,
    roleplay: 0.8,
    harmful_request: 0.3,
    addressed_to_assistant: 1,
    response_manipulation: 1,
    hidden_tool_instruction: 1,
    exfiltration: 1,
    sensitive_object: 1,
    imperative_in_data: 1,
    encoded_payload: 1,
  },
};

export const BIAS = -3;

/** Bonus per additional distinct recogniser of a type already present. */
const CORROBORATION = 0.25;

export interface TypeEvidence {
  readonly max: number;
  readonly distinct: number;
}

/** Logistic score in [0, 1] from per-type evidence. */
export function combineEvidence(
  evidence: ReadonlyMap<InjectionType, TypeEvidence>,
  channel: Channel,
): number {
  const w = CHANNEL_WEIGHTS[channel];
  let z = BIAS;
  for (const [type, ev] of evidence) {
    z += w[type] * (ev.max + CORROBORATION * Math.min(ev.distinct - 1, 3));
  }
  const has = (t: InjectionType) => evidence.has(t);
  // Two different families of direct attack in one text is far likelier an attack than either.
  const families = (['instruction_override', 'role_claim', 'prompt_extraction', 'jailbreak'] as const).filter(
    has,
  );
  if (families.length >= 2) z += 0.5;
  if (has('roleplay') && has('harmful_request')) z += 1.2;
  if (has('roleplay') && has('jailbreak')) z += 1.0;
  if (has('jailbreak') && has('harmful_request')) z += 0.6;
  const acts = has('hidden_tool_instruction') || has('exfiltration') || has('response_manipulation');
  if (channel === 'tool_output' && acts && (has('addressed_to_assistant') || has('instruction_override')))
    z += 1.0;
  if (channel === 'tool_output' && has('imperative_in_data') && has('exfiltration')) z += 0.8;
  if (has('exfiltration') && has('sensitive_object')) z += channel === 'tool_output' ? 0.8 : 0.3;
  return 1 / (1 + Math.exp(-z));
}
