/**
 * The egress gate's cost on streamed answers: an office answer of ~4 KB (English and Chinese,
 * a phone number, an ID or an address every few sentences) streamed in model-sized deltas (a word
 * each, as the scripted provider and most APIs send them) through `EgressGate.stream()`.
 * Reports characters per second (wall and CPU) for the streaming gate and for the complete-text
 * gate, and the time each delta's `push` adds (p50/p99/max, µs) — what a client waits on top of
 * the model, since a delta that releases nothing returns at once and one that releases pays for
 * the scan of the piece. Prints one JSON object on the last line.
 */
import { cpus, loadavg } from 'node:os';
import { Egress } from '../src/gates/index.js';

const parts = [
  'The quarterly review is moved to Thursday 10:00 in room 3B. ',
  'Please call Zhang Wei at 138 1234 5678 before the meeting. ',
  '本周五下午两点召开项目复盘会，请提前准备好各自负责模块的进展与风险。',
  'Revenue in the east region grew by 12 percent over the quarter. ',
  '联系人：李娜，电话 13987654321，邮箱 li.na@example.com。',
  'Her resident ID 11010519491231002X is on file with HR. ',
  'Delivery was on time, but the packaging could be improved for fragile items.\n',
  '报销说明：差旅费需附发票原件，住宿标准按城市等级执行。',
];
let answer = '';
for (let i = 0; answer.length < 4096; i++) answer += parts[i % parts.length];
// Deltas as a model streams them: a word (with its trailing space) or a few Chinese characters.
const deltas = answer.match(/[\x21-\x7e]+\s*|[^\x21-\x7e\s]{1,3}|\s+/g) ?? [];

const egress = new Egress({ watermarkKey: 'bench-key', watermarkChannels: { channels: { cli: 'off' } } });
const gate = (channel: string) =>
  egress.for({
    viewer: { tenant: 'acme', user: 'alice', dataLevel: 'L1' },
    sessionId: '0190f1a2-3b4c-7d5e-8f60-718293a4b5c6',
    channel,
  });

const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const r1 = (x: number) => Math.round(x * 10) / 10;

function streamRun(channel: string) {
  // Warm-up.
  for (let i = 0; i < 50; i++) {
    const s = gate(channel).stream();
    for (const d of deltas) s.push(d);
    s.end();
  }
  const perDelta: number[] = [];
  let releases = 0;
  let answers = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  while (performance.now() - t0 < 3000) {
    const s = gate(channel).stream();
    for (const d of deltas) {
      const t = performance.now();
      const out = s.push(d);
      perDelta.push((performance.now() - t) * 1000);
      if (out) releases++;
    }
    const t = performance.now();
    s.end();
    perDelta.push((performance.now() - t) * 1000);
    answers++;
  }
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuMs(c0) / 1000;
  perDelta.sort((a, b) => a - b);
  return {
    charsPerSec: Math.round((answers * answer.length) / wall),
    charsPerCpuSec: Math.round((answers * answer.length) / cpu),
    perDeltaUs: { p50: r1(pct(perDelta, 50)), p99: r1(pct(perDelta, 99)), max: r1(perDelta.at(-1)!) },
    releasesPerAnswer: r1(releases / answers),
  };
}

function wholeRun() {
  for (let i = 0; i < 50; i++) gate('api').text(answer);
  let n = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  while (performance.now() - t0 < 2000) {
    gate('api').text(answer);
    n++;
  }
  return {
    charsPerSec: Math.round((n * answer.length) / ((performance.now() - t0) / 1000)),
    charsPerCpuSec: Math.round((n * answer.length) / (cpuMs(c0) / 1000)),
  };
}

const result = {
  load: { loadavg1: r1(loadavg()[0]!), cores: cpus().length },
  answerChars: answer.length,
  deltas: deltas.length,
  stream: streamRun('sse'),
  streamUnwatermarked: streamRun('cli'),
  wholeText: wholeRun(),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
