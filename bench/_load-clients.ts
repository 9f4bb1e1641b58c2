/**
 * The two load generators bench/http.ts can drive, behind one shape: autocannon (an npm package,
 * always there, runs inside the bench's own Node process) and wrk (Debian's `wrk`, a C program,
 * when installed). Both keep a fixed number of keep-alive connections busy, each request
 * authenticated as one of several users.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type LoadClientName = 'autocannon' | 'wrk';

/** One client run against one URL. */
export interface ClientRun {
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Milliseconds. */
  readonly latency: {
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly max: number;
  };
}

export interface ClientLoad {
  readonly url: string;
  readonly connections: number;
  readonly seconds: number;
  /** Offered requests/s; 0 = as many as the server answers. */
  readonly rate: number;
  readonly body: string;
  /** Each connection (autocannon) or request (wrk) authenticates as one of these, in turn. */
  readonly authorizations: readonly string[];
}

/** Whether `wrk` is on PATH. */
export function wrkAvailable(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version prints its version and exits 1.
    return (err as { status?: number }).status === 1;
  }
}

interface AutocannonResult {
  requests: { total: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

// autocannon ships no type declarations: load it through a computed specifier and type what we use.
const autocannonModule = 'autocannon';
let autocannon: Autocannon | undefined;

/** autocannon, in this process. */
export async function runAutocannon(load: ClientLoad): Promise<ClientRun> {
  autocannon ??= ((await import(autocannonModule)) as { default: Autocannon }).default;
  let n = 0;
  const r = await autocannon({
    url: load.url,
    method: 'POST',
    connections: load.connections,
    ...(load.rate > 0 ? { overallRate: load.rate } : {}),
    duration: load.seconds,
    headers: { 'content-type': 'application/json' },
    body: load.body,
    setupClient: (client: { setHeaders(h: Record<string, string>): void }) => {
      const authorization = load.authorizations[n++ % load.authorizations.length]!;
      client.setHeaders({ 'content-type': 'application/json', authorization });
    },
  });
  return {
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    latency: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
  };
}

/** wrk's Lua: one prepared request per user, sent in turn; the summary printed as JSON at the end. */
const WRK_SCRIPT = `
local bodies = {}
local i = 0
function init(args)
  local body = io.open(args[1]):read("*a")
  for n = 2, #args do
    bodies[#bodies + 1] = wrk.format("POST", nil, { ["content-type"] = "application/json", ["authorization"] = args[n] }, body)
  end
end
function request()
  i = i + 1
  return bodies[(i % #bodies) + 1]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"non2xx":%d,"errors":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d}\\n',
    summary.requests, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
`;

/**
 * A clock of the CPU (user + system, ms) the named client has used: autocannon's is this
 * process's own; wrk's is that of this process's exited children (wrk runs end before it is read,
 * and the servers, also children, are still running then, so they do not count).
 */
export function clientCpuClock(client: LoadClientName): () => number {
  if (client === 'autocannon') {
    return () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
  }
  return () => {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100; // cutime + cstime, 10 ms ticks
  };
}

/**
 * wrk with one thread (each instance takes one core at most; the server needs the rest). No fixed
 * rate: wrk has none (wrk2 does, but Debian does not ship it).
 */
export async function runWrk(load: ClientLoad): Promise<ClientRun> {
  if (load.rate > 0) throw new Error('wrk cannot offer a fixed rate: use BENCH_HTTP_CLIENT=autocannon');
  const dir = mkdtempSync(join(tmpdir(), 'twinline-wrk-'));
  try {
    writeFileSync(join(dir, 'request.lua'), WRK_SCRIPT);
    writeFileSync(join(dir, 'body.json'), load.body);
    const child = spawn(
      'wrk',
      [
        '-t1',
        `-c${load.connections}`,
        `-d${load.seconds}s`,
        '--timeout',
        '10s',
        '-s',
        join(dir, 'request.lua'),
        load.url,
        '--',
        join(dir, 'body.json'),
        ...load.authorizations,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const line = /WRK_JSON (\{.*\})/.exec(out)?.[1];
    if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}): ${out.slice(-500)}`);
    const r = JSON.parse(line) as Record<
      'requests' | 'non2xx' | 'errors' | 'p50' | 'p90' | 'p99' | 'max',
      number
    >;
    const ms = (us: number) => Math.round(us / 100) / 10;
    return {
      requests: r.requests,
      non2xx: r.non2xx,
      errors: r.errors,
      latency: { p50: ms(r.p50), p90: ms(r.p90), p99: ms(r.p99), max: ms(r.max) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
