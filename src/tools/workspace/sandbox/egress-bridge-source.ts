/**
 * Runs inside a `network` sandbox as its first process: listens on the sandbox's own loopback
 * (the only interface its network namespace has) and forwards each connection to the egress
 * proxy's Unix socket, then starts the command and exits with its status. Plain CommonJS in a
 * string, run with `node -e`, so it works the same from `src` and `dist`.
 * argv: socket path, port, then the command's argv.
 */
export const EGRESS_BRIDGE_SOURCE = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [socketPath, port, ...argv] = process.argv.slice(1);
const server = net.createServer((inbound) => {
  const out = net.connect(socketPath);
  inbound.pipe(out);
  out.pipe(inbound);
  inbound.on('error', () => out.destroy());
  out.on('error', () => inbound.destroy());
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(argv[0], argv.slice(1), { stdio: 'inherit' });
  child.on('error', (e) => { process.stderr.write(String(e.message) + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (signal === 'SIGKILL' ? 9 : 15) : code));
});
`;

/** The port the bridge listens on inside the sandbox (its loopback is private to it). */
export const EGRESS_BRIDGE_PORT = 3128;
