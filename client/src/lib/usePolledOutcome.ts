import { useEffect, useEffectEvent, useRef } from 'react';
import type { CachedError } from '../api/cache';

/** What this needs of a generated query hook's result. */
export interface PolledRead<T> {
  data?: T;
  error?: unknown;
  isUninitialized: boolean;
  isError: boolean;
  isSuccess: boolean;
  isFetching: boolean;
  /** When the request of the answer shown was sent: tells one answer from the next. */
  startedTimeStamp?: number;
  refetch: () => unknown;
}

export type PolledAnswer<T> = { data: T } | { error: CachedError };

/**
 * For an outcome decided elsewhere (the payment provider's webhook), which a page waits for: calls `onAnswer` once
 * for each answer the cached read gets, with its number (from 1), and asks again `everyMs` later while `onAnswer`
 * answers true. The next request leaves only once the last answer has been read, so two are never on their way at
 * once, however slow the page is to show an answer. A skipped read starts counting again.
 */
export function usePolledOutcome<T>(read: PolledRead<T>, everyMs: number, onAnswer: (answer: PolledAnswer<T>, number: number) => boolean): void {
  const handled = useRef<number | undefined>(undefined);
  const count = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const answered = useEffectEvent(onAnswer);
  const askAgain = useEffectEvent(() => {
    if (!read.isUninitialized) void read.refetch();
  });
  const { data, error, isUninitialized, isError, isSuccess, isFetching, startedTimeStamp } = read;

  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (isUninitialized) {
      clearTimeout(timer.current);
      count.current = 0;
      return;
    }
    if (isFetching || !(isSuccess || isError) || startedTimeStamp === undefined || handled.current === startedTimeStamp) return;
    handled.current = startedTimeStamp;
    count.current += 1;
    if (answered(isSuccess ? { data: data as T } : { error: error as CachedError }, count.current)) timer.current = setTimeout(askAgain, everyMs);
  }, [data, error, isUninitialized, isError, isSuccess, isFetching, startedTimeStamp, everyMs]);
}
