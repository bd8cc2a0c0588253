import { TEST_SIGN_UP_LIMIT } from './sign-up-limit.js';
import { freePort, runNode, type RunningProcess } from './process.js';

const API = 'dist/apps/api/src/main.js';

export interface ApiProcess extends RunningProcess {
  url: string;
  port: number;
}

/**
 * A real API process (the built app) on a free port of 127.0.0.1, for tests that need several APIs,
 * a signal or a crash: what an in-process app cannot show.
 */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  const api = runNode(API, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    MIGRATE_ON_START: 'false',
    SIGN_UP_LIMIT_PER_HOUR: TEST_SIGN_UP_LIMIT,
    HOST: '127.0.0.1',
    PORT: String(port),
    ...env,
  });
  await api.waitFor(/API listening on/).catch((error: unknown) => {
    api.child.kill('SIGKILL');
    throw error;
  });
  return Object.assign(api, { url: `http://127.0.0.1:${port}`, port });
}
