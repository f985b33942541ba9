/** Reading request bodies within bounds, and the replies (JSON bodies, Error bodies) the service sends. */
import type { IncomingMessage } from 'node:http';
import { encodeJson } from '../../src/shared/records/json-codec';

export const MAX_BODY_BYTES = 64 * 1024;
/** A body over the limit is read and dropped up to this size (so the client sees the 413), then cut. */
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

export interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
  /** Close the connection after the reply (the request body was not fully read). */
  close?: boolean;
}

export interface RequestBody {
  text: string;
  tooLarge: boolean;
  /** The client went away or the body was cut off. */
  aborted: boolean;
}

export function jsonReply(status: number, value: unknown, headers?: Record<string, string>): Reply {
  return { status, body: encodeJson(value), headers };
}

/** An Error body of interface.md: `{ code, message, status }`, status equal to the HTTP status. */
export function errorReply(status: number, code: string, message: string, headers?: Record<string, string>): Reply {
  return jsonReply(status, { code, message, status }, headers);
}

export function readBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<RequestBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (aborted: boolean, partial = false) => {
      if (settled) return;
      settled = true;
      resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > maxBytes, aborted: aborted || partial });
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (size > DRAIN_LIMIT_BYTES) {
        req.pause();
        finish(false, false);
      }
    });
    req.on('end', () => finish(false));
    req.on('error', () => finish(true));
    req.on('close', () => finish(!req.complete));
  });
}

/** The path and query of a request target, without trusting it to be a well-formed URL. */
export function splitTarget(target: string): { path: string; query: URLSearchParams } {
  const at = target.indexOf('?');
  const path = at === -1 ? target : target.slice(0, at);
  let query: URLSearchParams;
  try {
    query = new URLSearchParams(at === -1 ? '' : target.slice(at + 1));
  } catch {
    query = new URLSearchParams();
  }
  return { path, query };
}
