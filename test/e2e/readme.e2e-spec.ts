import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApi, type TestApi } from '../support/api.js';
import { Client } from '../support/client.js';

/** The README's walkthrough: its `sh` blocks in these sections, in order, in one shell. */
const WALKTHROUGH = ['## Authentication', '## Judging a ticket'];

function shellBlocks(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no section ${heading}`);
  const next = markdown.indexOf('\n## ', start + heading.length + 2);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
}

function runBash(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe("the README's walkthrough", () => {
  let api: TestApi;
  let workdir: string;

  beforeAll(async () => {
    api = await startApi();
    // A clean folder with what the commands read: anything they leave behind shows there.
    workdir = mkdtempSync(path.join(os.tmpdir(), 'readme-'));
    cpSync('examples', path.join(workdir, 'examples'), { recursive: true });
  });
  afterAll(async () => {
    await api.close();
    rmSync(workdir, { recursive: true, force: true });
  });

  it('runs as written, in order: sign-up, a key, rotation, a pack, a judgment, revocation', async () => {
    const readme = readFileSync('README.md', 'utf8');
    const blocks = WALKTHROUGH.flatMap((heading) => shellBlocks(readme, heading));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const script = `set -euo pipefail\n${blocks.join('\n')}\necho "FINAL_KEY=$KEY"\n`;
    const tmp = path.join(workdir, 'tmp');
    mkdirSync(tmp);
    // Not spawnSync: the API answering the commands runs in this process.
    const run = await runBash(script, workdir, { ...process.env, BASE: api.url, TMPDIR: tmp });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('"redactedTicket"');
    expect(run.stdout).not.toMatch(/"error"/);
    // Each JSON answer printed on a line of its own, the judgment's included.
    const answers = run.stdout.split('\n').filter((line) => /^[[{]/.test(line));
    expect(answers.length).toBeGreaterThanOrEqual(6);
    for (const line of answers) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(answers.map((line) => JSON.parse(line) as Record<string, unknown>)).toContainEqual(
      expect.objectContaining({ evaluationId: expect.any(String), result: expect.any(Object) }),
    );
    // The session cookie went to a temporary file, removed at the end: nothing is left behind.
    expect(readdirSync(workdir).sort()).toEqual(['examples', 'tmp']);
    expect(readdirSync(tmp)).toEqual([]);
    const finalKey = /FINAL_KEY=(\S+)/.exec(run.stdout)?.[1];
    expect(finalKey).toMatch(/^tj_live_/);
    const revoked = await new Client(api.url).get('/api/packs', { apiKey: finalKey! });
    expect([revoked.status, revoked.body]).toEqual([401, { error: 'invalid API key' }]);
  }, 90_000);
});
