/**
 * A listen failure in one line naming the variable to change, instead of a stack trace: the
 * common case is a second process on one host with the same port (EADDRINUSE), or a port below
 * 1024 without the right to bind it (EACCES).
 */
export function describeListenError(
  error: unknown,
  variable: string,
  port: number,
  host: string,
): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE')
    return `${variable}=${port} is already in use on ${host}: set ${variable} to a free port (each process on one host needs its own)`;
  if (code === 'EACCES')
    return `${variable}=${port} cannot be bound on ${host} (permission denied): use a port above 1023`;
  if (code === 'EADDRNOTAVAIL')
    return `HOST=${host} is not an address of this machine: set HOST to 127.0.0.1 or 0.0.0.0`;
  return null;
}
