// The emulators the local service starts die with it, also when it dies without running its shutdown (SIGKILL, an
// OOM kill, a test runner's timeout): a DynamoDB Local JVM left behind holds its port and CPU until someone kills it.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { freePort } from '../../scripts/local/ports.ts';

const ROOT = join(import.meta.dirname, '..', '..');
// Start-up has taken minutes on a loaded 2-core machine (see local-stack-setup.ts).
const START_TIMEOUT_MS = 300_000;
/** A bound on how long the JVM may take to notice, not a speed target. */
const EXIT_WAIT_MS = 30_000;

/** Pids and command names of the processes in a process group (Linux /proc). */
function groupMembers(pgid: number): { pid: number; comm: string }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        // pid (comm) state ppid pgrp …: comm may hold spaces, so split after its closing parenthesis.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const [, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        return Number(pgrp) === pgid ? [{ pid: Number(name), comm }] : [];
      } catch {
        return []; // exited while listed
      }
    });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('DynamoDB Local exits on its own when the service process is killed with SIGKILL', async () => {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'scripts/local/start.ts'],
    {
      cwd: ROOT,
      detached: true, // its own process group, to find its children and clean up after a failure
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        DYNAMODB_LOCAL_PORT: String(await freePort()),
        AWS_LOCAL_PORT: String(await freePort()),
      },
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const pgid = child.pid!;
  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    let healthy = false;
    while (!healthy && Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the service exited early:\n${output}`);
      healthy = await fetch(`http://127.0.0.1:${port}/v1/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (!healthy) await new Promise((r) => setTimeout(r, 200));
    }
    expect(healthy, output).toBe(true);
    const jvm = groupMembers(pgid).find((p) => p.comm === 'java');
    expect(jvm, 'the DynamoDB Local JVM').toBeDefined();

    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid!, 'SIGKILL'); // the node process only: no shutdown code runs, nothing signals the JVM
    await exited;
    const gone = Date.now() + EXIT_WAIT_MS;
    while (alive(jvm!.pid) && Date.now() < gone) await new Promise((r) => setTimeout(r, 200));
    expect(alive(jvm!.pid), `DynamoDB Local (pid ${jvm!.pid}) outlived its parent`).toBe(false);
    expect(groupMembers(pgid)).toEqual([]);
  } finally {
    if (groupMembers(pgid).length > 0) process.kill(-pgid, 'SIGKILL'); // a failed run leaves no orphan either
  }
}, 400_000);
