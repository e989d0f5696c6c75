/** The runtime behind the generated hooks: a query hook (GET) and a mutation hook (others). */
import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiError, type ApiError, type RequestOptions } from './http';

export interface QueryOptions {
  /** When false the call is not made (for example until an id is known). Default true. */
  enabled?: boolean;
}

export interface QueryState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

type Call<A, T> = (args: A, options?: RequestOptions) => Promise<T>;

export function useApiQuery<A, T>(call: Call<A, T>, args: A, options: QueryOptions = {}): QueryState<T> {
  const enabled = options.enabled ?? true;
  const key = JSON.stringify(args);
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: enabled });
  const [generation, setGeneration] = useState(0);
  const argsRef = useRef(args);
  argsRef.current = args;

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: undefined }));
    call(argsRef.current, { signal: controller.signal }).then(
      (data) => setState({ data, loading: false }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ error: toApiError(error), loading: false });
      },
    );
    return () => controller.abort();
  }, [call, key, enabled, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export interface MutationState<A, T> {
  run: (args: A, options?: RequestOptions) => Promise<T>;
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
}

export function useApiMutation<A, T>(call: Call<A, T>): MutationState<A, T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: false });
  const run = useCallback(
    async (args: A, options?: RequestOptions) => {
      setState((s) => ({ ...s, loading: true, error: undefined }));
      try {
        const data = await call(args, options);
        setState({ data, loading: false });
        return data;
      } catch (error) {
        setState({ error: toApiError(error), loading: false });
        throw error;
      }
    },
    [call],
  );
  return { run, data: state.data, error: state.error, loading: state.loading };
}
