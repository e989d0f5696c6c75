import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * Last line of defence: when rendering the error page itself fails, show a plain page with the
 * details and a link home. No antd here, nothing that could fail again.
 */
export function ErrorPageFailure({ error }: { error: unknown }) {
  const details = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return (
    <div role="alert" style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '80px auto', padding: '0 24px', color: '#161326' }}>
      <h1 style={{ fontSize: 24, marginBottom: 12 }}>An error occurred while showing the error page</h1>
      <pre style={{ whiteSpace: 'pre-wrap', background: '#f4f3f8', padding: 16, borderRadius: 8, fontSize: 13 }}>{details}</pre>
      <p>
        <a href="/" style={{ color: '#5b3cf5', fontWeight: 600 }}>
          Go back to home
        </a>
      </p>
    </div>
  );
}

interface State {
  error: unknown;
  failed: boolean;
}

export class ErrorPageGuard extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('The error page failed to render', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <ErrorPageFailure error={this.state.error} /> : this.props.children;
  }
}
