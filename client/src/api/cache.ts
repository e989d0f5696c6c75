/**
 * The runtime of the client's one cached data layer (RTK Query). The endpoints themselves are generated from
 * openapi.yaml into `generated/endpoints.ts`; each calls the generated operation of the same name, so every request
 * still goes through the one HTTP client (`http.ts`): its session renewal, and its one error toast.
 *
 * What the cache adds on top of a bare call: a read answered once is shown again at once (a page visited a minute
 * ago, the same profile in two places), the same read asked twice at once is sent once, and a change invalidates the
 * reads of what it changed (by the contract's tag of each operation, and its `x-invalidates`), which load again.
 */
import {
  createApi,
  defaultSerializeQueryArgs,
  fakeBaseQuery,
  type Api,
  type coreModuleName,
  type EndpointDefinitions,
  type reactHooksModuleName,
} from '@reduxjs/toolkit/query/react';
import * as operations from './generated/operations';
import type { ApiError, RequestOptions } from './http';
import { toApiError } from './http';

/** What a component may add to a call's arguments. */
export interface CallOptions {
  /**
   * The caller shows the failure itself (a form under its field, a page's own error state), so the one error toast
   * stays away. The text says why, for the reader of the call; it is not shown.
   */
  quiet?: string;
  /**
   * For a change that moves money (its operation is marked `x-idempotent`): the Idempotency-Key of an earlier try of
   * the same action, so that a retry is done at most once. Left out, each call sends a key of its own.
   */
  idempotencyKey?: string;
}

/** A failed call as the cache keeps it: plain data (the store holds no class instances). */
export interface CachedError {
  status: number;
  code: string;
  message: string;
  errors: ApiError['errors'];
}

type Operation<A, T> = (args: A, options?: RequestOptions) => Promise<T>;

/** Runs one generated operation for the cache: the arguments without the call's own options, the abort signal. */
async function callOperation<A, T>(
  operation: Operation<A, T>,
  args: (A & CallOptions) | void,
  signal: AbortSignal,
): Promise<{ data: T } | { error: CachedError }> {
  const { quiet, idempotencyKey, ...rest } = (args ?? {}) as A & CallOptions;
  try {
    return { data: await operation(rest as A, { signal, quiet, ...(idempotencyKey ? { idempotencyKey } : {}) }) };
  } catch (failure) {
    const { status, code, message, errors } = toApiError(failure);
    return { error: { status, code, message, errors } };
  }
}

/** The page arguments of a cursor-paged read: the first page has no cursor, each next one the previous `nextCursor`. */
function withCursor<A extends { query?: object }>(args: A | void, cursor: string | undefined): A {
  const base = (args ?? {}) as A;
  return cursor === undefined ? base : { ...base, query: { ...base.query, cursor } };
}

/**
 * A read's cache key: its arguments without `quiet`, which says only how a failure is shown, so the same read asked
 * quietly in one place and aloud in another is one entry and one request.
 */
const cacheKey: typeof defaultSerializeQueryArgs = ({ queryArgs, ...rest }) => {
  const given: unknown = queryArgs;
  if (typeof given !== 'object' || given === null) return defaultSerializeQueryArgs({ ...rest, queryArgs: given });
  const args: CallOptions & Record<string, unknown> = { ...given };
  delete args.quiet;
  return defaultSerializeQueryArgs({ ...rest, queryArgs: args });
};

/** The cache calls no base query: each endpoint runs its generated operation, which goes through the HTTP client. */
export type CacheBaseQuery = ReturnType<typeof fakeBaseQuery<CachedError>>;

/**
 * How the cache treats one operation: a read, a read in pages (`cursor`: the answer's field naming the next page), or
 * a change; `tags`: the contract tags a read provides, or a change invalidates.
 */
export type EndpointPlan<Tag extends string> =
  { kind: 'query'; tags: readonly Tag[] } | { kind: 'pages'; tags: readonly Tag[]; cursor: string } | { kind: 'mutation'; tags: readonly Tag[] };

export type CachedApi<Definitions extends EndpointDefinitions, Tag extends string> = Api<
  CacheBaseQuery,
  Definitions,
  'api',
  Tag,
  typeof coreModuleName | typeof reactHooksModuleName
>;

/**
 * The cache's endpoints built from a plan (generated from the contract) rather than written out one by one: the
 * landing page downloads this table, so it is kept small; `Definitions` gives each endpoint its types.
 */
export function createCachedApi<Definitions extends EndpointDefinitions, Tag extends string>(
  tagTypes: readonly Tag[],
  plan: { [Name in keyof Definitions & string]: EndpointPlan<Tag> },
): CachedApi<Definitions, Tag> {
  const api = createApi({
    reducerPath: 'api',
    baseQuery: fakeBaseQuery<CachedError>(),
    tagTypes,
    // A change reloads what it invalidated at once: by default the cache waits until no read is on its way, so one slow
    // read (a phone on a poor line) held back every reload after a change.
    invalidationBehavior: 'immediately',
    endpoints: (build) => {
      const endpoints: EndpointDefinitions = {};
      for (const [name, endpoint] of Object.entries<EndpointPlan<Tag>>(plan)) {
        // Read from the module when called, so that a test's stand-in for an operation is the one called.
        const run = (args: unknown, signal: AbortSignal) =>
          callOperation((operations as unknown as Record<string, Operation<unknown, unknown>>)[name]!, args as CallOptions, signal);
        const tags = [...endpoint.tags];
        if (endpoint.kind === 'mutation') {
          // A failed change changed nothing: the reads it would have invalidated stay.
          endpoints[name] = build.mutation({
            queryFn: (args: unknown, { signal }) => run(args, signal),
            invalidatesTags: (_result, error) => (error ? [] : tags),
          });
        } else if (endpoint.kind === 'query') {
          endpoints[name] = build.query({ queryFn: (args: unknown, { signal }) => run(args, signal), providesTags: tags, serializeQueryArgs: cacheKey });
        } else {
          const { cursor } = endpoint;
          endpoints[name] = build.infiniteQuery<unknown, unknown, string | undefined>({
            infiniteQueryOptions: {
              initialPageParam: undefined,
              getNextPageParam: (page) => (page as Record<string, string | null | undefined> | undefined)?.[cursor] ?? undefined,
            },
            queryFn: ({ queryArg, pageParam }, { signal }) => run(withCursor(queryArg as { query?: object }, pageParam), signal),
            providesTags: tags,
            serializeQueryArgs: cacheKey,
          });
        }
      }
      return endpoints;
    },
  });
  return api as unknown as CachedApi<Definitions, Tag>;
}
