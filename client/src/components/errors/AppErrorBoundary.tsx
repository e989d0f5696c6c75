import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  fallback: (error: unknown) => ReactNode;
}

/** The outermost boundary: anything the route boundary did not catch (layout, providers). */
export class AppErrorBoundary extends Component<Props, { error: unknown; hasError: boolean }> {
  override state = { error: null as unknown, hasError: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Application error', error, info.componentStack);
  }

  override render() {
    return this.state.hasError ? this.props.fallback(this.state.error) : this.props.children;
  }
}
