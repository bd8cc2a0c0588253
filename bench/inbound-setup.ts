import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { summarizeCpuProfile, type ProfileLine } from './cpu-profile.js';
import type { Machine } from './inbound-report.js';

export function withApplicationName(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', name);
  return url.toString();
}

export async function ensureServices(root: string, databaseUrl: string, redisUrl: string): Promise<void> {
  const services = (await import(pathToFileURL(path.join(root, 'scripts/services.mjs')).href)) as {
    ensureServices(urls: { databaseUrl: string; redisUrl: string }): Promise<void>;
  };
  await services.ensureServices({ databaseUrl, redisUrl });
}

export function describeMachine(postgres: string): Machine {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  return {
    cpus: os.availableParallelism(),
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown CPU',
    node: process.version,
    postgres,
    loadAverage: os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' / '),
  };
}

export async function post(url: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The completion endpoint of the tenant, pointed at the receiver, which learns its secret. */
export async function saveEndpoint(apiUrl: string, apiKey: string, receiverUrl: string): Promise<void> {
  const saved = await post(
    `${apiUrl}/api/webhook-endpoints`,
    { 'x-api-key': apiKey },
    { url: `${receiverUrl}/completions` },
  );
  if (saved.status !== 201) throw new Error(`saving the endpoint answered ${saved.status}`);
  const response = await fetch(`${receiverUrl}/secret`, { method: 'PUT', body: saved.body.secret as string });
  if (response.status !== 204) throw new Error('the receiver did not take the secret');
}

/** Where the profiled API spent its CPU (`BENCH_PROFILE=1`), boot left out. */
export function printProfile(directory: string): void {
  const lines = (title: string, entries: ProfileLine[]) => [
    title,
    ...entries.map(
      (e) => `  ${(e.share * 100).toFixed(1).padStart(5)}%  ${e.ms.toFixed(0).padStart(7)} ms  ${e.name}`,
    ),
  ];
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'))) {
    const summary = summarizeCpuProfile(path.join(directory, file), 40);
    console.log(
      [
        '',
        `API CPU profile ${path.join(directory, file)}: ${summary.busyMs.toFixed(0)} ms busy ` +
          `(plus ${summary.startupMs.toFixed(0)} ms loading modules at boot, left out)`,
        ...lines('Inclusive time by package or app folder (on the stack):', summary.inclusiveByArea),
        ...lines('Self time by package or app folder:', summary.selfByArea),
        ...lines('Self time by function:', summary.selfByFunction),
      ].join('\n'),
    );
  }
}
