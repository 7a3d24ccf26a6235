import type { ChildProcess } from 'node:child_process';

/** What `child` writes to stdout and stderr, gathered as it comes (read `text` at any time). */
export function outputOf(child: ChildProcess): { text: string } {
  const output = { text: '' };
  const gather = (chunk: Buffer | string) => {
    output.text += chunk;
  };
  child.stdout?.on('data', gather);
  child.stderr?.on('data', gather);
  return output;
}

/** Sends SIGTERM unless `child` has exited; resolves with its exit code. */
export async function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.kill('SIGTERM');
  return exited;
}

/** Resolves with the exit code of `child` and everything it wrote, once it has exited. */
export function completionOf(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  const output = outputOf(child);
  return new Promise((done) => child.on('exit', (code) => done({ code, output: output.text })));
}
