import { StrictMode, useMemo } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import ConfigProvider from 'antd/es/config-provider';
import { ErrorScreen } from '../components/errors';
import { AppErrorBoundary } from '../components/errors/AppErrorBoundary';
import { ToastLayer } from '../components/ToastLayer';
import { AppRoutes } from './AppRoutes';
import type { AppStore } from './store';
import { usePrefersReducedMotion, withMotionPreference } from './reducedMotion';
import { theme } from './theme';

/** The SPA: theme (motion as the visitor prefers), store, history-mode router, error toasts, and an app-wide error boundary. */
export function App({ store }: { store: AppStore }) {
  const reducedMotion = usePrefersReducedMotion();
  const appTheme = useMemo(() => withMotionPreference(theme, reducedMotion), [reducedMotion]);
  return (
    <StrictMode>
      <AppErrorBoundary fallback={(error) => <ErrorScreen error={error} />}>
        <ConfigProvider theme={appTheme}>
          <Provider store={store}>
            <BrowserRouter>
              <ToastLayer />
              <AppRoutes />
            </BrowserRouter>
          </Provider>
        </ConfigProvider>
      </AppErrorBoundary>
    </StrictMode>
  );
}
