import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort, waitFor } from '@portico/platform/testing';

const SERVE_STATIC = resolve(import.meta.dirname, '../../../frontends/serve-static.mjs');

describe("the front ends' local static server", () => {
  let dir: string;
  let child: ChildProcess;
  let base: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portico-static-'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>shell</title>');
    await writeFile(join(dir, 'app.js'), 'console.log(1);');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [SERVE_STATIC, '--dir', dir, '--port', String(port), '--spa'], {
      stdio: 'ignore',
      env: { ...process.env, PORTICO_API_URL: '' },
    });
    await waitFor(async () => (await fetch(`${base}/healthz`)).ok, 10_000, 'the static server');
  });

  afterAll(async () => {
    child?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers an address with a malformed escape and keeps serving', async () => {
    // Any page open in a browser could send one (an image at '/%'): it ended the server.
    const spaPath = await fetch(`${base}/%E0%A4%A`);
    expect(spaPath.status).toBe(200); // no extension: the page, as for any unknown path
    expect(await spaPath.text()).toContain('<title>shell</title>');
    expect((await fetch(`${base}/%E0%A4%A.js`)).status).toBe(404);
    expect(child.exitCode).toBeNull();
    const file = await fetch(`${base}/app.js`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('console.log(1);');
  });
});
