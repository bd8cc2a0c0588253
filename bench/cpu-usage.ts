import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat; 100 on every mainstream Linux build. */
const TICKS_PER_SECOND = 100;

/** User + system CPU time of a process so far, in ms; 0 when it is gone or /proc is unavailable. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces, so count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime] = [Number(fields[11]), Number(fields[12])];
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export function totalCpuMs(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
}
