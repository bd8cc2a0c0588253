import { readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The views `npm run build` writes (scripts/build-mcp-views.mjs). */
export function viewHtml(name: 'evaluation' | 'calibration'): string {
  return readFileSync(`dist/mcp-views/${name}.html`, 'utf8');
}

/**
 * The host page: ext-apps' AppBridge over PostMessageTransport, as an MCP Apps host embeds a view,
 * bundled with its dependencies (the MCP client, zod) into one inline module by
 * mcp-app-host.build.mjs, in a process of its own (Rolldown refuses plugins from Jest's VM context).
 */
export async function hostPage(): Promise<string> {
  const { stdout } = await run(process.execPath, ['test/support/mcp-app-host.build.mjs'], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const code = stdout.replaceAll('</script', '<\\/script');
  return `<!doctype html><html lang="en"><head><title>Test host</title></head><body><main><h1>Test host</h1></main><script type="module">${code}</script></body></html>`;
}
