/**
 * Recognisers precise enough to decide on their own: a hit lifts the learned score to at least
 * the review threshold, whatever the window's other features say. Chosen because none of them
 * fires on any benign text of the training corpus and the public sets (5,400 user inputs, 12,000
 * documents, hard benign ones included — scripts/train-injection.ts prints the count), and because
 * each names a technique that has no innocent reading: a claimed promotion of the assistant or the
 * requester to a named privileged role (the incident of docs/gates.md), "do not follow your
 * instructions", a demand to reveal the system prompt in Chinese, a Chinese override.
 */
export const FLOOR_RULES: ReadonlySet<string> = new Set([
  'role.en.role-token',
  'role.en.promoted',
  'role.en.promoted-to',
  'role.en.youarenow',
  'role.zh.role-token',
  'role.zh.promoted',
  'role.zh.promoted-to',
  'role.zh.youarenow',
  'override.en.donotfollow',
  'override.zh.ignore',
  'override.zh.disobey',
  'extract.zh.sysprompt',
  'extract.zh.ba',
  'extract.en.above',
]);
