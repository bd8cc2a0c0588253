import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { startApi, type TestApi } from '../support/api.js';
import { PASSWORD, signUp, uniqueEmail } from '../support/client.js';
import {
  authorizeInBrowser,
  Browser,
  connectMcpClientV2,
  TestOAuthProvider,
  type ToolClient,
} from '../support/mcp-client.js';

const VIEWS = {
  judge_ticket: 'ui://ticket-judge/evaluation.html',
  get_evaluation: 'ui://ticket-judge/evaluation.html',
  get_calibration: 'ui://ticket-judge/calibration.html',
};

/** A new user's v2 client (2026-07-28), declaring the MCP Apps extension or not. */
async function connect(baseUrl: string, apps: boolean): Promise<ToolClient> {
  const email = uniqueEmail('mcp-apps');
  await signUp(baseUrl, email);
  const capabilities = apps ? { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } : {};
  const { client } = await connectMcpClientV2(
    new URL(`${baseUrl}/mcp`),
    new TestOAuthProvider(),
    (url) => authorizeInBrowser(new Browser(), url, { email, password: PASSWORD }),
    fetch,
    capabilities,
  );
  return client;
}

describe('MCP Apps views, negotiated through the client capabilities', () => {
  let api: TestApi;
  let apps: ToolClient;
  let plain: ToolClient;

  beforeAll(async () => {
    api = await startApi({ REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-mcp-apps` });
    [apps, plain] = await Promise.all([connect(api.url, true), connect(api.url, false)]);
  });
  afterAll(async () => {
    await apps?.close();
    await plain?.close();
    await api?.close();
  });

  it('names a view in the listing of judge_ticket, get_evaluation and get_calibration, and serves it', async () => {
    const { tools } = await apps.listTools();
    const withViews = Object.fromEntries(
      tools.filter((tool) => tool._meta).map((tool) => [tool.name, tool._meta.ui.resourceUri]),
    );
    expect(withViews).toEqual(VIEWS);
    expect(tools.find((tool) => tool.name === 'judge_ticket')!._meta['ui/resourceUri']).toBe(
      VIEWS.judge_ticket,
    );

    const { resources } = await apps.listResources();
    const views = resources.filter((resource) => resource.uri.startsWith('ui://'));
    expect(views).toEqual([
      expect.objectContaining({ uri: VIEWS.judge_ticket, mimeType: RESOURCE_MIME_TYPE }),
      expect.objectContaining({ uri: VIEWS.get_calibration, mimeType: RESOURCE_MIME_TYPE }),
    ]);
    for (const uri of new Set(Object.values(VIEWS))) {
      const { contents } = await apps.readResource({ uri });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri, mimeType: RESOURCE_MIME_TYPE });
      const html = contents[0].text as string;
      expect(html.startsWith('<!doctype html>')).toBe(true);
      expect(gzipSync(html).length).toBeLessThan(50_000);
    }
  });

  it('leaves a client without the extension the listings it had', async () => {
    const { tools } = await plain.listTools();
    expect(tools.filter((tool) => tool._meta !== undefined)).toEqual([]);
    const { resources } = await plain.listResources();
    expect(resources.filter((resource) => resource.uri.startsWith('ui://'))).toEqual([]);
    // The tool answers are the same for both: the view is the host's to show, from the same JSON.
    const [withApps, without] = await Promise.all([
      apps.callTool({ name: 'list_packs', arguments: {} }),
      plain.callTool({ name: 'list_packs', arguments: {} }),
    ]);
    expect(Object.keys(withApps).sort()).toEqual(Object.keys(without).sort());
  });
});
