import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { call, serve } from './test-helpers';

/** Sends raw bytes and collects whatever comes back until the server closes. */
function raw(port: number, bytes: string | Buffer, endAfterWrite = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => (endAfterWrite ? socket.end(bytes) : socket.write(bytes)));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('hardening', () => {
  it('answers malformed HTTP with an Error body and keeps serving', async () => {
    const service = await serve();
    const garbage = await raw(service.port, 'GARBAGE\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request[\s\S]*X-RateLimit-Limit: 60[\s\S]*"status":400/);
    expect(await raw(service.port, `GET /v1/pets HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)).toMatch(
      /^HTTP\/1\.1 431/,
    );
    expect(await raw(service.port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n')).toMatch(/400/);
    const head =
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-key-1\r\nContent-Type: application/json\r\nContent-Length: 4\r\nConnection: close\r\n\r\n';
    const badUtf8 = await raw(service.port, Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xfe, 0x7b, 0x7d])]));
    expect(badUtf8).toMatch(/^HTTP\/1\.1 400/);
    expect((await call(`${service.url}/pets`)).status).toBe(200);
  });

  it('cuts off a slow client after the request timeout while serving others', async () => {
    const service = await serve({ requestTimeoutMs: 300 });
    const slow = raw(service.port, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n', false);
    expect((await call(`${service.url}/pets`)).status).toBe(200);
    expect(await slow).toMatch(/^(HTTP\/1\.1 408|)/);
  });

  it('drops an oversized body after a 413 without crashing', async () => {
    const service = await serve();
    const answer = await call(`${service.url}/pets`, { body: `{"name":"${'x'.repeat(2_000_000)}","categoryId":1}` });
    expect(answer.status).toBe(413);
    expect((await call(`${service.url}/pets`)).status).toBe(200);
  });

  it('serves a few hundred concurrent connections', async () => {
    const service = await serve({ keys: { bulk: 'enterprise:100000:1000000' }, seedAnimals: 30 });
    const agent = new Agent({ keepAlive: false, maxSockets: 400 });
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          `${service.url}/pets?limit=20`,
          { agent, headers: { Authorization: 'Bearer bulk' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const statuses = await Promise.all(Array.from({ length: 400 }, get));
    agent.destroy();
    expect(statuses.filter((status) => status === 200)).toHaveLength(400);
  });
});
