import { describe, expect, it } from '@jest/globals';
import {
  describeInboundSignature,
  describeTestResult,
  describePermissions,
  describeStatusCode,
  fieldError,
  mcpUrl,
  nextRetryAt,
  PERMISSION_DESCRIPTIONS,
  PERMISSIONS,
  validateEndpointUrl,
  validateKeyName,
  validatePermissions,
} from './integrations';

function apiError(status: number, message: string, issues: { path: string; message: string }[] = []) {
  return {
    status,
    message,
    issueFor: (path: string) => issues.find((issue) => issue.path === path)?.message,
  };
}

describe('PERMISSIONS', () => {
  it('lists the six permissions once each, each described', () => {
    expect(PERMISSIONS).toHaveLength(6);
    expect(new Set(PERMISSIONS).size).toBe(6);
    for (const permission of PERMISSIONS) expect(PERMISSION_DESCRIPTIONS[permission]).toBeTruthy();
  });
});

describe('describePermissions', () => {
  it('says all when every permission is granted, in any order', () => {
    expect(describePermissions([...PERMISSIONS].reverse())).toEqual({ all: true, list: [...PERMISSIONS] });
  });

  it('keeps the documented order and drops unknown names', () => {
    expect(describePermissions(['labels:write', 'packs:read', 'admin:everything'])).toEqual({
      all: false,
      list: ['packs:read', 'labels:write'],
    });
  });

  it('handles none', () => {
    expect(describePermissions([])).toEqual({ all: false, list: [] });
  });
});

describe('validation', () => {
  it('needs a key name of at most 100 characters', () => {
    expect(validateKeyName('  ')).toBe('Enter a name for the key');
    expect(validateKeyName('x'.repeat(101))).toBe('Use at most 100 characters');
    expect(validateKeyName(' zendesk ')).toBeUndefined();
  });

  it('needs at least one permission', () => {
    expect(validatePermissions([])).toBe('Choose at least one permission');
    expect(validatePermissions(['packs:read'])).toBeUndefined();
  });

  it('needs an absolute http(s) endpoint URL', () => {
    expect(validateEndpointUrl('')).toMatch(/Enter the URL/);
    expect(validateEndpointUrl('example.com/hook')).toMatch(/absolute http or https URL/);
    expect(validateEndpointUrl('ftp://example.com/hook')).toBe('The URL must start with http or https');
    expect(validateEndpointUrl(`https://example.com/${'a'.repeat(2048)}`)).toBe(
      'Use at most 2048 characters',
    );
    expect(validateEndpointUrl(' https://helpdesk.example.com/hooks/ticket-judge ')).toBeUndefined();
    expect(validateEndpointUrl('http://localhost:8080/hook')).toBeUndefined();
  });
});

describe('fieldError', () => {
  it('prefers the schema issue for the field', () => {
    const error = apiError(400, 'invalid request', [{ path: 'url', message: 'url must be a string' }]);
    expect(fieldError(error, 'url')).toBe('url must be a string');
    expect(fieldError(error, 'name')).toBeUndefined();
  });

  it('takes a 400 message that names the field', () => {
    expect(fieldError(apiError(400, 'url host does not resolve'), 'url')).toBe('url host does not resolve');
    expect(fieldError(apiError(400, 'urlish thing'), 'url')).toBeUndefined();
    expect(fieldError(apiError(403, 'url forbidden'), 'url')).toBeUndefined();
  });

  it('is empty without an error', () => {
    expect(fieldError(undefined, 'url')).toBeUndefined();
  });
});

describe('describeStatusCode', () => {
  it('shows the code, or why there is none', () => {
    expect(describeStatusCode({ attempts: 2, lastStatusCode: 502 })).toBe('502');
    expect(describeStatusCode({ attempts: 1, lastStatusCode: null })).toBe('no response');
    expect(describeStatusCode({ attempts: 0, lastStatusCode: null })).toBe('not sent yet');
  });
});

describe('mcpUrl', () => {
  it('appends /mcp to the origin', () => {
    expect(mcpUrl('https://judge.example.com')).toBe('https://judge.example.com/mcp');
    expect(mcpUrl('http://localhost:3000/')).toBe('http://localhost:3000/mcp');
  });
});

describe('nextRetryAt', () => {
  it('is the next attempt of a pending delivery, and nothing once it succeeded or failed for good', () => {
    const at = '2026-11-27T04:00:00.000Z';
    expect(nextRetryAt({ status: 'pending', nextAttemptAt: at })).toBe(at);
    expect(nextRetryAt({ status: 'pending', nextAttemptAt: null })).toBeNull();
    expect(nextRetryAt({ status: 'succeeded', nextAttemptAt: at })).toBeNull();
    expect(nextRetryAt({ status: 'failed', nextAttemptAt: at })).toBeNull();
  });
});

describe('describeInboundSignature', () => {
  it('says whether unsigned inbound requests are refused', () => {
    expect(describeInboundSignature(true)).toContain('required');
    expect(describeInboundSignature(false)).toContain('signed or unsigned');
  });
});

describe('describeTestResult', () => {
  it("names the receiver's status and the time it took", () => {
    expect(describeTestResult({ ok: true, status: 204, durationMs: 38, error: null })).toEqual({
      ok: true,
      summary: 'HTTP 204 in 38 ms',
    });
    expect(describeTestResult({ ok: false, status: 500, durationMs: 1250, error: 'HTTP 500' })).toEqual({
      ok: false,
      summary: 'HTTP 500 in 1.3 s',
    });
    expect(describeTestResult({ ok: true, status: 200, durationMs: 0, error: null }).summary).toBe(
      'HTTP 200 in under 1 ms',
    );
  });

  it('says when no response came, with the error', () => {
    expect(
      describeTestResult({
        ok: false,
        status: null,
        durationMs: 3,
        error: 'Error: connect ECONNREFUSED 127.0.0.1:9',
      }),
    ).toEqual({ ok: false, summary: 'No response after 3 ms: Error: connect ECONNREFUSED 127.0.0.1:9' });
    expect(describeTestResult({ ok: false, status: null, durationMs: 10_004, error: null }).summary).toBe(
      'No response after 10 s',
    );
  });
});
