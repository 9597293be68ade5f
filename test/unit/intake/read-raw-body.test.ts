import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';

import { readRawBody } from '../../../src/intake/read-raw-body.js';

/** A request as the HTTP server makes it, on a socket that is never connected. */
function makeRequest(headers: Record<string, string> = {}): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = headers;
  return req;
}

describe('readRawBody', () => {
  it('answers aborted, without waiting, for a request whose client went away before its body was read', async () => {
    const req = makeRequest({ 'content-length': '10' });
    req.destroy();
    // Its 'close' has been emitted by the time the route reads the body (e.g. after a slow hook lookup).
    await new Promise((resolve) => setImmediate(resolve));
    expect(await readRawBody(req, 1024)).toEqual({ ok: false, reason: 'aborted' });
  });

  it('answers aborted for a client that goes away mid-body', async () => {
    const req = makeRequest({ 'content-length': '10' });
    const read = readRawBody(req, 1024);
    req.push(Buffer.from('12345'));
    req.destroy();
    expect(await read).toEqual({ ok: false, reason: 'aborted' });
  });

  it('gives the bytes as received, in one buffer, across chunks', async () => {
    const req = makeRequest();
    const read = readRawBody(req, 1024);
    req.push(Buffer.from('{"id":'));
    req.push(Buffer.from('"é"}'));
    req.push(null);
    const result = await read;
    expect(result.ok && result.body.toString('utf8')).toBe('{"id":"é"}');
  });

  it('refuses a body that passes the limit while it is read, and stops collecting it', async () => {
    const req = makeRequest();
    const read = readRawBody(req, 8);
    req.push(Buffer.from('12345'));
    req.push(Buffer.from('6789'));
    expect(await read).toEqual({ ok: false, reason: 'too_large' });
    expect(req.listenerCount('data')).toBe(0);
  });

  it('gives a body received whole before it is read, exactly as received', async () => {
    const req = makeRequest({ 'content-length': '10' });
    req.push(Buffer.from('{"id":'));
    req.push(Buffer.from('"é"}'));
    req.push(null);
    const result = await readRawBody(req, 1024);
    expect(result.ok && result.body.toString('utf8')).toBe('{"id":"é"}');
  });

  it('gives an empty body as an empty buffer', async () => {
    const req = makeRequest({ 'content-length': '0' });
    req.push(null);
    const result = await readRawBody(req, 1024);
    expect(result.ok && result.body.length).toBe(0);
  });

  it('refuses a body received whole before it is read when it is past the limit (sent chunked, so undeclared)', async () => {
    const req = makeRequest();
    req.push(Buffer.from('123456789'));
    req.push(null);
    expect(await readRawBody(req, 8)).toEqual({ ok: false, reason: 'too_large' });
  });
});
