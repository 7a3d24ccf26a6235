// Shared pieces of the benchmarks: child processes, readiness, an autocannon run and its summary.
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';

export function spawnNode(name, args, env) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.on('exit', (code) => {
    if (code && code !== 143 && code !== 0) process.stderr.write(`[${name}] exited ${code}\n${stderr}\n`);
  });
  return child;
}

export async function stopChild(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export async function waitUntilOk(url, timeoutMs = 30_000, headers = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url, { headers })).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out waiting for ${url}`);
}

/** One load run: `connections` concurrent clients for `seconds`, after a short warm-up. */
export async function load(url, { connections = 50, seconds = 15, headers = {} } = {}) {
  await autocannon({ url, connections, duration: 2, headers });
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    total: result.requests.total,
  };
}

export function table(rows) {
  const header = ['', 'req/s', 'p50 ms', 'p99 ms', 'errors'];
  const lines = [
    header,
    ...rows.map(([name, r]) => [
      name,
      r.requestsPerSecond.toFixed(0),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      String(r.errors),
    ]),
  ];
  const widths = header.map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  return lines.map((l) => l.map((cell, i) => cell.padEnd(widths[i])).join('  ')).join('\n');
}
