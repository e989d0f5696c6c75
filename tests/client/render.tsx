import type { ReactElement, ReactNode } from 'react';
import { render, waitFor, type RenderOptions } from '@testing-library/react';
import { StyleProvider } from '@ant-design/cssinjs';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { createAppStore, type AppStore } from '../../client/src/app/store';

/**
 * antd's style rules are collected, as in server rendering, instead of injected into the document. jsdom
 * matches every rule of the document against an element on each `getComputedStyle`, which Testing Library
 * calls for every element a role query looks at; with antd's thousands of selectors that matching was most
 * of a test's time (a player test file: 60 s with the rules injected, 9 s without). Inline styles, `hidden`
 * and ARIA attributes still decide what is visible (setup.ts adds antd's few hiding classes); how pages look
 * is checked in Chromium by the e2e tests.
 */
export function CollectedStyles({ children }: { children?: ReactNode }) {
  return <StyleProvider mock="server">{children}</StyleProvider>;
}

/** `render` with antd's styles collected (see `CollectedStyles`): every jsdom test renders through it. */
export function renderUi(ui: ReactElement, options: Omit<RenderOptions, 'queries'> = {}) {
  return render(ui, { wrapper: CollectedStyles, ...options });
}

/** Renders UI with a real store (sagas running) inside a memory router. */
export function renderWithStore(ui: ReactElement, { store = createAppStore(), path = '/' }: { store?: AppStore; path?: string } = {}) {
  const result = renderUi(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </Provider>,
  );
  return { ...result, store };
}

/** Waits until the antd modal inside `selector` has finished closing: its wrapper is hidden. */
export async function waitForModalHidden(selector: string): Promise<void> {
  await waitFor(() => expect(document.querySelector(`${selector} .ant-modal-wrap`)?.getAttribute('style') ?? '').toContain('display: none'));
}
