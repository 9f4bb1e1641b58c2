/**
 * Classifies a response the assistant is about to send: does it steer data outside (send it to
 * an outside address, paste it into an outside site)? Indirect injections often end here — the
 * model, persuaded by a document, tells the user to submit data somewhere. Pure.
 */
import { scanText } from '../input/index.js';
import { findPii, type PiiFinding } from './pii/find.js';

export interface OutboundVerdict {
  readonly verdict: 'pass' | 'flag' | 'block';
  readonly score: number;
  readonly reasons: readonly string[];
  readonly destinations: readonly string[];
}

export interface OutboundOptions {
  /** Domains that are inside the organisation (addresses/URLs there are not "outside"). */
  readonly internalDomains?: readonly string[];
}

const DEST = /[\w.+-]+@([\w-]+(?:\.[\w-]+)+)|https?:\/\/([^\s/"'<>:]+)[^\s"'<>]*|\bwww\.([^\s/"'<>]+)/gi;
const STEER =
  /\b(?:send|forward|e-?mail|upload|post|paste|submit|enter|share|copy|fill (?:in|out)|log ?in|sign ?in|verify|provide)\b|(?:发送|发到|转发|上传|提交|粘贴|填写|输入|登录|验证|提供|复制)/i;

function isInternal(host: string, internal: readonly string[]): boolean {
  const h = host.toLowerCase();
  return internal.some((d) => h === d.toLowerCase() || h.endsWith(`.${d.toLowerCase()}`));
}

/** What one look at a text found; several looks (a streamed answer's windows) combine. */
interface OutboundSignals {
  /** Outside destinations, in order of appearance. */
  readonly destinations: string[];
  /** Exfiltration / hidden-tool findings: `rule NUL reason` → reason, in order of appearance. */
  readonly exfil: Map<string, string>;
  steer: boolean;
  sensitive: boolean;
  /** High-tier PII values (undefined: not looked for yet). */
  pii: number | undefined;
}

function emptySignals(): OutboundSignals {
  return { destinations: [], exfil: new Map(), steer: false, sensitive: false, pii: undefined };
}

function observe(text: string, internal: readonly string[], into: OutboundSignals): void {
  // exec on the shared regex, not matchAll (which builds a new RegExp per call).
  DEST.lastIndex = 0;
  for (let m = DEST.exec(text); m !== null; m = DEST.exec(text)) {
    const host = m[1] ?? m[2] ?? m[3] ?? '';
    if (!isInternal(host, internal)) into.destinations.push(m[0]);
  }
  const scan = scanText(text, { channel: 'tool_output' });
  for (const f of scan.findings) {
    if (f.type === 'exfiltration' || f.type === 'hidden_tool_instruction') {
      into.exfil.set(`${f.rule}\u0000${f.reason}`, f.reason);
    } else if (f.type === 'sensitive_object') into.sensitive = true;
  }
  // Remembered even without a destination in this text: a later window may bring one.
  into.steer ||= STEER.test(text);
}

/** The partial score before PII: what decides whether PII is looked for at all. */
function baseScore(s: OutboundSignals): { score: number; reasons: string[] } {
  const reasons: string[] = [];
  let score = 0;
  // A destination-based finding only counts when some destination is actually outside.
  const exfil = [...s.exfil].filter(
    ([key]) => !(key.slice(0, key.indexOf('\u0000')).endsWith('.dest') && s.destinations.length === 0),
  );
  if (exfil.length > 0) {
    score += 0.5;
    reasons.push(...new Set(exfil.map(([, reason]) => reason)));
  }
  if (s.destinations.length > 0 && s.steer) {
    score += 0.3;
    reasons.push('asks to send or enter something at an outside destination');
  }
  return { score, reasons };
}

function verdictOf(s: OutboundSignals, base: { score: number; reasons: string[] }): OutboundVerdict {
  let { score } = base;
  const reasons = [...base.reasons];
  const pii = score > 0 ? (s.pii ?? 0) : 0;
  if (pii > 0) {
    score += 0.3;
    reasons.push(`carries ${pii} PII value(s) toward it`);
  }
  if (s.sensitive && score > 0) score += 0.1;
  score = Math.min(1, Math.round(score * 100) / 100);
  const verdict = score >= 0.8 ? 'block' : score >= 0.3 ? 'flag' : 'pass';
  return { verdict, score, reasons, destinations: [...s.destinations] };
}

/** High-tier PII that counts toward an outbound verdict (dates and addresses of mail do not). */
export function countsAsOutboundPii(f: PiiFinding): boolean {
  return f.tier === 'high' && f.type !== 'DATE_TIME' && f.type !== 'EMAIL_ADDRESS';
}

export function classifyOutbound(text: string, options: OutboundOptions = {}): OutboundVerdict {
  const signals = emptySignals();
  observe(text, options.internalDomains ?? [], signals);
  const base = baseScore(signals);
  // PII only adds to a score that is already raised, so an answer with nothing outbound (the common
  // case) skips the PII scan; the verdict is the same either way.
  if (base.score > 0) signals.pii = findPii(text).filter(countsAsOutboundPii).length;
  return verdictOf(signals, base);
}

/**
 * The outbound classifier over a text that arrives in pieces (a streamed answer): each `add`
 * looks at one window (the new text with some text before it, so a phrase across the seam is
 * seen whole) and the verdict is that of everything seen so far — a destination in one sentence
 * and "forward it" in a later one add up as they would in the whole text.
 */
export class OutboundTracker {
  readonly #internal: readonly string[];
  readonly #signals = emptySignals();
  readonly #seenDest = new Set<string>();
  #pii = 0;

  constructor(options: OutboundOptions = {}) {
    this.#internal = options.internalDomains ?? [];
  }

  /**
   * Adds one window; `pii` are the new high-tier PII values in it (the caller has scanned them
   * already), counted once each.
   */
  add(window: string, newPii: number): OutboundVerdict {
    const s = emptySignals();
    observe(window, this.#internal, s);
    for (const d of s.destinations) {
      if (this.#seenDest.has(d)) continue;
      this.#seenDest.add(d);
      this.#signals.destinations.push(d);
    }
    for (const [key, reason] of s.exfil)
      if (!this.#signals.exfil.has(key)) this.#signals.exfil.set(key, reason);
    this.#signals.steer ||= s.steer;
    this.#signals.sensitive ||= s.sensitive;
    this.#pii += newPii;
    this.#signals.pii = this.#pii;
    return verdictOf(this.#signals, baseScore(this.#signals));
  }
}
