import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ApiError } from '../../api/http';
import { ErrorPage, type ErrorPageProps } from './ErrorPage';
import { ErrorPageGuard } from './ErrorPageGuard';
import { isChunkLoadError } from './chunkReload';

/** How an error thrown while rendering a route is shown on the error page. */
export function errorPageProps(error: unknown): ErrorPageProps {
  if (error instanceof ApiError) {
    return { status: error.status >= 400 ? error.status : 500, message: error.message };
  }
  if (isChunkLoadError(error)) {
    return {
      status: 500,
      message: 'This page could not be loaded',
      details: `${(error as Error).message}\nA new version of Knack may have been released: reload the page to get it.`,
    };
  }
  // An error that carries an HTTP-like status was thrown on purpose: its message is the title.
  // Other runtime errors are bugs: the title stays 'Error' and the message goes to the details.
  const status = typeof (error as { status?: unknown })?.status === 'number' ? (error as { status: number }).status : undefined;
  const details = error instanceof Error ? `${error.name}: ${error.message}` : error == null ? undefined : describe(error);
  if (status !== undefined) return { status, message: error instanceof Error ? error.message : undefined };
  return { status: 500, details };
}

/** The error page, guarded: if it cannot render, the plain fallback shows instead. */
export function ErrorScreen({ error, ...props }: ErrorPageProps & { error?: unknown }) {
  const shown = error === undefined ? props : { ...errorPageProps(error), ...props };
  return (
    <ErrorPageGuard>
      <ErrorPage {...shown} />
    </ErrorPageGuard>
  );
}

interface Props {
  children: ReactNode;
  /** When this changes (the route), a shown error is cleared so navigation recovers. */
  resetKey?: string;
}

interface State {
  error: unknown;
  hasError: boolean;
  resetKey?: string;
}

/** Catches render errors of a route (and failed lazy chunks) and shows the error page in its place. */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, hasError: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { resetKey: props.resetKey, hasError: false, error: null };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Route error', error, info.componentStack);
  }

  override render() {
    return this.state.hasError ? <ErrorScreen error={this.state.error} /> : this.props.children;
  }
}

/** A thrown value that is not an Error, as text: an object as its JSON (String would give '[object Object]'). */
function describe(thrown: unknown): string {
  if (typeof thrown === 'string') return thrown;
  if (typeof thrown === 'number' || typeof thrown === 'boolean' || typeof thrown === 'bigint') return thrown.toString();
  if (typeof thrown === 'symbol') return thrown.toString();
  return JSON.stringify(thrown) ?? typeof thrown;
}
