import { describe, expect, it } from '@jest/globals';
import { describeStatement, serializeError } from './log-options.js';

/** The shape of TypeORM's QueryFailedError: the driver's fields copied on, query and parameters kept. */
function queryFailedError(): Error {
  const error = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
    query: 'INSERT INTO "users"("email", "password_hash") VALUES ($1, $2) RETURNING "id"',
    parameters: ['jane@example.com', '$argon2id$secret-hash'],
    code: '23505',
    constraint: 'users_email_key',
    table: 'users',
    detail: 'Key (email)=(jane@example.com) already exists.',
    driverError: { detail: 'Key (email)=(jane@example.com) already exists.', code: '23505' },
  });
  return error;
}

describe('serializeError', () => {
  it('keeps what failed and drops parameters, detail and echoed values of a failed query', () => {
    const logged = serializeError(queryFailedError());
    expect(logged).toMatchObject({
      message: 'duplicate key value violates unique constraint "…"',
      code: '23505',
      constraint: 'users_email_key',
      table: 'users',
      statement: 'INSERT INTO users',
    });
    const text = JSON.stringify(logged);
    expect(text).not.toContain('jane@example.com');
    expect(text).not.toContain('argon2id');
    expect(text).not.toContain('parameters');
    expect(text).not.toContain('detail');
  });

  it('drops unknown fields of any error and follows causes', () => {
    const inner = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', body: 'ticket text' });
    const outer = Object.assign(new Error('delivery failed', { cause: inner }), { request: { secret: 'x' } });
    const logged = serializeError(outer);
    expect(logged).toMatchObject({ type: 'Error', message: 'delivery failed' });
    expect(logged).toMatchObject({ cause: { message: 'socket hang up', code: 'ECONNRESET' } });
    expect(JSON.stringify(logged)).not.toMatch(/ticket text|secret/);
  });

  it('keeps the stack frames without repeating the message', () => {
    const logged = serializeError(
      Object.assign(new Error('invalid input syntax for type uuid: "MARKER"'), { query: 'SELECT 1' }),
    );
    expect(typeof logged === 'object' && logged.stack).toMatch(/^\s+at /);
    expect(JSON.stringify(logged)).not.toContain('MARKER');
  });
});

describe('describeStatement', () => {
  it('names the statement and its table, never values', () => {
    expect(describeStatement('UPDATE idempotency_keys SET evaluation_id = $4 WHERE user_id = $1')).toBe(
      'UPDATE idempotency_keys',
    );
    expect(describeStatement('DELETE FROM "labels" WHERE id = $1')).toBe('DELETE FROM labels');
    expect(describeStatement('SELECT p.id FROM packs p WHERE p.user_id = $1')).toBe('SELECT … FROM packs');
    expect(describeStatement('WITH x AS (SELECT 1) INSERT INTO evaluations (id) SELECT * FROM x')).toBe(
      'INSERT INTO evaluations',
    );
  });
});
