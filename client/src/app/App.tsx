import IconContext from '@ant-design/icons/es/components/Context';
import { StrictMode } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { ErrorScreen } from '../components/errors';
import { AppErrorBoundary } from '../components/errors/AppErrorBoundary';
import { ToastLayer } from '../components/ToastLayer';
import { AppRoutes } from './AppRoutes';
import type { AppStore } from './store';

/** The icons' rules come with the app's stylesheet (main.tsx), so no icon inserts them at run time. */
const ICONS_STYLED_BY_STYLESHEET = { zeroRuntime: true };

/**
 * The SPA: store, history-mode router, error toasts, and an app-wide error boundary. antd's themed provider is not
 * here: each page and modal that uses antd brings it with its code (withAntd), so the landing page loads no antd.
 */
export function App({ store }: { store: AppStore }) {
  return (
    <StrictMode>
      <AppErrorBoundary fallback={(error) => <ErrorScreen error={error} />}>
        <IconContext.Provider value={ICONS_STYLED_BY_STYLESHEET}>
          <Provider store={store}>
            <BrowserRouter>
              <ToastLayer />
              <AppRoutes />
            </BrowserRouter>
          </Provider>
        </IconContext.Provider>
      </AppErrorBoundary>
    </StrictMode>
  );
}
