/** Renders the whole SPA (real store, sagas, router, toasts) at a path, with an extra members-only route. */
import { screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import ConfigProvider from 'antd/es/config-provider';
import { getAllTags, getPageMeta, getPageUi } from '../../client/src/api/generated/operations';
import { AppRoutes } from '../../client/src/app/AppRoutes';
import { ROUTES } from '../../client/src/app/routes';
import { createAppStore } from '../../client/src/app/store';
import { ToastLayer } from '../../client/src/components/ToastLayer';
import { membersRoute } from './auth-fixtures';
import { footerFixture, tagFixture } from './fixtures';
import { renderUi } from './render';

/** The generated operations must be mocked by the calling test file (jest.mock). */
export function mockPublicCalls() {
  jest.mocked(getAllTags).mockResolvedValue({ tags: tagFixture() });
  jest.mocked(getPageMeta).mockRejectedValue(new Error('no CMS in tests'));
  jest.mocked(getPageUi).mockResolvedValue(footerFixture);
}

/** `path` null renders at the current history entry, as a reload does. */
export function renderApp(path: string | null = '/') {
  if (path !== null) window.history.pushState(null, '', path);
  const store = createAppStore();
  const view = renderUi(
    <ConfigProvider>
      <Provider store={store}>
        <BrowserRouter>
          <ToastLayer />
          <AppRoutes routes={[...ROUTES, membersRoute]} />
        </BrowserRouter>
      </Provider>
    </ConfigProvider>,
  );
  return { store, ...view };
}

export const homeHeading = () => screen.findByRole('heading', { level: 1, name: 'Get paid for every play and view.' });
