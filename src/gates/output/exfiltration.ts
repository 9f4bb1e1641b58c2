/**
 * Classifies a response the assistant is about to send: does it steer data outside (send it to
 * an outside address, paste it into an outside site)? Indirect injections often end here — the
 * model, persuaded by a document, tells the user to submit data somewhere. Pure.
 */
import { scanText } from '../input/index.js';
import { findPii } from './pii/find.js';

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

export function classifyOutbound(text: string, options: OutboundOptions = {}): OutboundVerdict {
  const internal = options.internalDomains ?? [];
  const destinations: string[] = [];
  // exec on the shared regex, not matchAll (which builds a new RegExp per call).
  DEST.lastIndex = 0;
  for (let m = DEST.exec(text); m !== null; m = DEST.exec(text)) {
    const host = m[1] ?? m[2] ?? m[3] ?? '';
    if (!isInternal(host, internal)) destinations.push(m[0]);
  }
  const reasons: string[] = [];
  const scan = scanText(text, { channel: 'tool_output' });
  // A destination-based finding only counts when some destination is actually outside.
  const exfil = scan.findings.filter(
    (f) =>
      (f.type === 'exfiltration' || f.type === 'hidden_tool_instruction') &&
      !(f.rule.endsWith('.dest') && destinations.length === 0),
  );
  let score = 0;
  if (exfil.length > 0) {
    score += 0.5;
    reasons.push(...new Set(exfil.map((f) => f.reason)));
  }
  if (destinations.length > 0 && STEER.test(text)) {
    score += 0.3;
    reasons.push('asks to send or enter something at an outside destination');
  }
  // PII only adds to a score that is already raised, so an answer with nothing outbound (the common
  // case) skips the PII scan; the verdict is the same either way.
  const pii =
    score > 0
      ? findPii(text).filter((f) => f.tier === 'high' && f.type !== 'DATE_TIME' && f.type !== 'EMAIL_ADDRESS')
      : [];
  if (pii.length > 0 && score > 0) {
    score += 0.3;
    reasons.push(`carries ${pii.length} PII value(s) toward it`);
  }
  if (scan.findings.some((f) => f.type === 'sensitive_object') && score > 0) score += 0.1;
  score = Math.min(1, Math.round(score * 100) / 100);
  const verdict = score >= 0.8 ? 'block' : score >= 0.3 ? 'flag' : 'pass';
  return { verdict, score, reasons, destinations };
}
