/**
 * Requests no HTTP client would send (a bad Content-Length, a header line without a colon): Node's
 * parser refuses them before any route runs, and the answer, when there is one, still keeps the contract.
 */
export const MALFORMED_HTTP: [string, string][] = [
  ['bad content-length', 'POST /api/judge HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
  [
    'length and chunked',
    'POST /api/judge HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  ],
  [
    'bad chunk size',
    'POST /api/judge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  ],
  ['header without colon', 'GET /api/packs HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
  ['NUL in a header value', 'GET /api/packs HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
  ['unknown HTTP version', 'GET /api/packs HTTP/9.9\r\nHost: x\r\n\r\n'],
  ['space in the path', 'GET /api/pa cks HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['unknown method', 'BREW /api/packs HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['bad percent-encoding', 'GET /api/packs/%ff HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['oversized header', `GET /api/packs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`],
];
