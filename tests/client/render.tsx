import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { createAppStore, type AppStore } from '../../client/src/app/store';

/** Renders UI with a real store (sagas running) inside a memory router. */
export function renderWithStore(ui: ReactElement, { store = createAppStore(), path = '/' }: { store?: AppStore; path?: string } = {}) {
  const result = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </Provider>,
  );
  return { ...result, store };
}
