// Shared pieces of the benchmarks: child processes, readiness, an autocannon run and its summary.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';

const SERVE_STATIC = join(resolve(import.meta.dirname, '../..'), 'frontends', 'serve-static.mjs');

export function spawnNode(name, args, env) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.label = name;
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

/**
 * A built frontend (`dir`) served on `port` as the local stack serves it (frontends/serve-static.mjs,
 * `args` such as --spa or --config), once it answers. Returns the child process and the base URL.
 */
export async function serveFrontend(name, dir, port, args = []) {
  const child = spawnNode(name, [SERVE_STATIC, '--dir', dir, '--port', String(port), ...args]);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilOk(`${url}/healthz`);
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { child, url };
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
export async function load(url, { connections = 50, seconds = 15, headers = {}, cpuLabels } = {}) {
  await autocannon({ url, connections, duration: 2, headers });
  const cpuBefore = cpuLabels && descendantCpu(cpuLabels);
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const cpu = cpuLabels && cpuPerRequest(cpuBefore, descendantCpu(cpuLabels), result.requests.total);
  return {
    cpu,
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

/**
 * CPU seconds used so far by every process started under this one (servers, their workers and
 * database backends), by label: `labels` maps a pid to a name, other processes go by their command.
 * Linux only (reads /proc). Less sensitive than req/s to whatever else the machine is doing.
 */
export function descendantCpu(labels = new Map()) {
  const ticksPerSecond = 100;
  const procs = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      procs.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        comm,
        // Its own time and that of its ended children (a database backend that closed, say).
        cpu:
          (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) /
          ticksPerSecond,
      });
    } catch {}
  }
  const children = new Map();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const byLabel = new Map();
  const visit = (pid, inherited) => {
    for (const child of children.get(pid) ?? []) {
      const label = labels.get(child.pid) ?? inherited ?? child.comm;
      byLabel.set(label, (byLabel.get(label) ?? 0) + child.cpu);
      visit(child.pid, label);
    }
  };
  visit(process.pid);
  return byLabel;
}

/** CPU milliseconds per request by label between two `descendantCpu` readings. */
export function cpuPerRequest(before, after, requests) {
  const rows = [];
  for (const [label, seconds] of after) {
    const used = seconds - (before.get(label) ?? 0);
    if (used > 0.005) rows.push([label, (used * 1000) / requests]);
  }
  return rows.sort((a, b) => b[1] - a[1]);
}

/** `cpuPerRequest` rows of several runs as one table, with each run's total. */
export function cpuTable(runs) {
  const lines = [];
  for (const [name, rows] of runs) {
    const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
    lines.push(
      `${name}: ${total.toFixed(3)} ms  (${rows.map(([label, ms]) => `${label} ${ms.toFixed(3)}`).join(', ')})`,
    );
  }
  return lines.join('\n');
}
