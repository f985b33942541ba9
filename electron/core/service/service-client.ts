/**
 * The Animal Adoption Service operations of one profile: every call goes through the
 * profile's rate-limit governor, then one HTTP exchange (http-client.ts), then the codec
 * and the zod contract (response-mapping.ts); service-call.ts makes one such call and judges
 * its answer. Results are values shaped like the outputs of the matching channels of
 * src/shared/app-api/api.ts. Every attempt is reported to `onRequest`.
 */
import { z } from 'zod';
import {
  Animal,
  Animals,
  ListQuery,
  type ListQuery as ListQueryInput,
  NewAnimal,
} from '../../../src/shared/records/animal';
import type { ChannelOutput } from '../../../src/shared/app-api/api';
import { duplicatedIds } from '../../../src/shared/records/duplicate-ids';
import { describeIssues } from '../../../src/shared/basics/errors';
import { t } from '../../../src/shared/i18n';
import { isInt64String } from '../../../src/shared/records/int64';
import { encodeJson } from '../../../src/shared/records/json-codec';
import { err, ok, type Result } from '../../../src/shared/app-api/result';
import type { HttpOptions } from '../http';
import { Scrubber } from '../keys';
import { ReadSharing } from './read-sharing';
import { ERROR_MESSAGES } from './response-mapping';
import { type Answer, type Call, type CallTarget, createExecute } from './service-call';

/** Removal date of `GET /pets/{petId}` (interface.md): Thu, 05 Dec 2030 00:00:00 GMT. */
export const GET_PET_SUNSET_MS = Date.UTC(2030, 11, 5);

export interface ServiceClientOptions extends CallTarget {
  fetch: typeof fetch;
  /** The core's scrubber; it learns the key of every request. A client's own one by default. */
  scrubber?: Scrubber;
  http?: Pick<HttpOptions, 'headersTimeoutMs' | 'totalTimeoutMs' | 'maxBodyBytes' | 'route'>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** The screen a list read is for: a newer read for it drops this one if not yet sent (read-sharing.ts). */
  view?: string;
}

export interface ServiceClient {
  listPets(query: z.input<typeof ListQuery>, options?: CallOptions): Promise<Result<ChannelOutput<'listPets'>>>;
  getPet(id: string, options?: CallOptions): Promise<Result<ChannelOutput<'getPet'>>>;
  createPet(
    animal: NewAnimal,
    idempotencyKey: string,
    options?: CallOptions,
  ): Promise<Result<ChannelOutput<'createPet'>>>;
  ordersRaw(options?: CallOptions): Promise<Result<ChannelOutput<'ordersRaw'>>>;
  testKey(): Promise<Result<ChannelOutput<'testKey'>>>;
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const { clock } = options;
  const scrubber = options.scrubber ?? new Scrubber();
  let getPetGone = false;
  const http: HttpOptions = { fetch: options.fetch, clock, ...options.http };
  const execute = createExecute(options, scrubber, http);

  const reads = new ReadSharing<Answer<unknown>>();

  /** A GET, shared with an identical one under way (a caller's own signal keeps it unshared). */
  function read<S extends z.core.$ZodType>(call: Call<S>, view?: string): Promise<Answer<z.output<S>>> {
    if (call.signal) return execute(call);
    const key = `${call.segments.join('/')}?${call.query ?? ''}`;
    return reads.run(key, view, (signal, onSent) => execute({ ...call, signal, onSent })) as Promise<
      Answer<z.output<S>>
    >;
  }

  return {
    async listPets(query, callOptions = {}) {
      const parsed = ListQuery.safeParse(query);
      if (!parsed.success)
        return err(
          'invalid_request',
          describeIssues(parsed.error.issues, { paths: false, max: 1 }) || t('core.listQueryInvalid'),
        );
      const params = listParams(parsed.data);
      const answer = await read(
        {
          kind: 'read',
          method: 'GET',
          segments: ['pets'],
          query: params,
          schema: Animals,
          signal: callOptions.signal,
          inspect: (animals) => {
            const repeated = duplicatedIds(animals, (animal) => animal.id);
            return repeated.length === 0 ? null : { refuse: false, note: duplicateNote(repeated) };
          },
        },
        callOptions.view,
      );
      return answer.result.ok ? ok({ animals: answer.result.data, fetchedAt: answer.fetchedAt }) : answer.result;
    },

    async getPet(id, callOptions = {}) {
      if (!isInt64String(id)) return err('invalid_request', t('core.animalIdNotWhole'));
      if (getPetGone || clock.now() >= GET_PET_SUNSET_MS) return err('gone', ERROR_MESSAGES.gone, { status: 410 });
      const answer = await read({
        kind: 'read',
        method: 'GET',
        segments: ['pets', id],
        schema: Animal,
        signal: callOptions.signal,
        // Another animal's record must never be taken for this one (nor cached under its own id).
        inspect: (animal) =>
          animal.id === id
            ? null
            : {
                refuse: true,
                note: t('core.otherAnimal', { answered: animal.id, id }),
              },
      });
      if (!answer.result.ok) {
        if (answer.result.error.code === 'gone') getPetGone = true;
        return answer.result;
      }
      const deprecation = {
        deprecation: answer.headers?.get('Deprecation') ?? null,
        sunset: answer.headers?.get('Sunset') ?? null,
      };
      return ok({ animal: answer.result.data, fetchedAt: answer.fetchedAt, deprecation });
    },

    async createPet(animal, idempotencyKey, callOptions = {}) {
      const parsed = NewAnimal.safeParse(animal);
      if (!parsed.success)
        return err(
          'invalid_request',
          describeIssues(parsed.error.issues, { paths: false, max: 1 }) || t('core.newAnimalInvalid'),
        );
      const answer = await execute({
        kind: 'write',
        method: 'POST',
        segments: ['pets'],
        body: encodeJson(parsed.data),
        idempotencyKey,
        schema: Animal,
        signal: callOptions.signal,
      });
      return answer.result.ok ? ok({ animal: answer.result.data, fetchedAt: answer.fetchedAt }) : answer.result;
    },

    async ordersRaw(callOptions = {}) {
      const answer = await read({
        kind: 'read',
        method: 'GET',
        segments: ['store', 'orders'],
        schema: z.json(),
        signal: callOptions.signal,
      });
      return answer.result.ok ? ok({ body: answer.result.data, fetchedAt: answer.fetchedAt }) : answer.result;
    },

    async testKey() {
      const result = await this.listPets({ limit: 1 });
      if (result.ok) return ok({ result: 'valid', message: t('core.keyAccepted') });
      const { code, message } = result.error;
      if (code === 'no_key') return result;
      if (code === 'unauthorized' || code === 'banned') return ok({ result: 'invalid', message });
      return ok({ result: 'unreachable', message });
    },
  };
}

/** What Diagnostics says of ids repeated in one list answer (the renderer keeps the last record of each). */
function duplicateNote(ids: string[]): string {
  return t('core.duplicateIds', { ids: ids.slice(0, 10).join(', '), more: Math.max(0, ids.length - 10) });
}

function listParams(query: ListQueryInput): URLSearchParams {
  const params = new URLSearchParams({ limit: String(query.limit) });
  if (query.status) params.set('status', query.status);
  return params;
}
