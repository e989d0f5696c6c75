/**
 * Error handling: the error page and its 404 variant, the fallback when the error page itself
 * fails, the route error boundary, and the stale-chunk reload (at most once per 60 seconds).
 */
import { useState } from 'react';
import { act, fireEvent, screen } from '@testing-library/react';
import { ApiError } from '../../client/src/api/http';
import {
  CHUNK_RELOAD_INTERVAL_MS,
  CHUNK_RELOAD_KEY,
  ErrorPage,
  ErrorPageGuard,
  RouteErrorBoundary,
  claimChunkReload,
  isChunkLoadError,
  withChunkReload,
} from '../../client/src/components/errors';
import { renderUi } from './render';

function quietConsole() {
  return jest.spyOn(console, 'error').mockImplementation(() => undefined);
}

describe('ErrorPage', () => {
  it('when nothing is given, then the title is Error and the status 500', () => {
    renderUi(<ErrorPage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Error');
    expect(screen.getByText('500')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to the home page/ }).getAttribute('href')).toBe('/');
  });

  it('when a message and status are given, then they show', () => {
    renderUi(<ErrorPage status={503} message="The service is down for maintenance" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('The service is down for maintenance');
    expect(screen.getByText('503')).toBeTruthy();
  });

  it('when the status is 404, then it reads This page could not be found with Back to the home page', () => {
    renderUi(<ErrorPage status={404} message="ignored" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This page could not be found');
    expect(screen.getByText('404')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to the home page/ }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('button', { name: /Reload/ })).toBeNull();
  });
});

describe('ErrorPageGuard', () => {
  it('when the error page itself fails to render, then the plain fallback shows the details and Go back to home', () => {
    const spy = quietConsole();
    function BrokenErrorPage(): never {
      throw new Error('theme is undefined');
    }
    renderUi(
      <ErrorPageGuard>
        <BrokenErrorPage />
      </ErrorPageGuard>,
    );
    expect(screen.getByText('An error occurred while showing the error page')).toBeTruthy();
    expect(screen.getByText(/theme is undefined/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go back to home' }).getAttribute('href')).toBe('/');
    spy.mockRestore();
  });
});

describe('RouteErrorBoundary', () => {
  function Thrower({ error }: { error: unknown }): never {
    throw error;
  }

  it('when a route throws a bug, then the error page shows Error with the details', () => {
    const spy = quietConsole();
    renderUi(
      <RouteErrorBoundary resetKey="/">
        <Thrower error={new TypeError('tags is undefined')} />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Error');
    expect(screen.getByText('500')).toBeTruthy();
    expect(screen.getByText(/tags is undefined/)).toBeTruthy();
    spy.mockRestore();
  });

  it('when a route throws an API 404, then the 404 page shows', () => {
    const spy = quietConsole();
    renderUi(
      <RouteErrorBoundary resetKey="/">
        <Thrower error={new ApiError('Tag not found', 404, 'not_found')} />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('This page could not be found');
    spy.mockRestore();
  });

  it('when the route changes, then the error is cleared', () => {
    const spy = quietConsole();
    function Harness() {
      const [path, setPath] = useState('/broken');
      return (
        <>
          <button onClick={() => setPath('/')}>go home</button>
          <RouteErrorBoundary resetKey={path}>{path === '/broken' ? <Thrower error={new Error('boom')} /> : <p>home page</p>}</RouteErrorBoundary>
        </>
      );
    }
    renderUi(<Harness />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Error');
    fireEvent.click(screen.getByText('go home'));
    expect(screen.getByText('home page')).toBeTruthy();
    spy.mockRestore();
  });
});

describe('stale chunk reload', () => {
  const chunkError = () => new TypeError('Failed to fetch dynamically imported module: /assets/HomePage-abc.js');

  it('when the error is a missing chunk, then it is recognised; other errors are not', () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new Error('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('tags is undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('when reloads are claimed, then one is allowed per 60 seconds and the time is kept in sessionStorage', () => {
    const t0 = 1_000_000;
    expect(claimChunkReload(t0, window.sessionStorage)).toBe(true);
    expect(window.sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe(String(t0));
    expect(claimChunkReload(t0 + 1_000, window.sessionStorage)).toBe(false);
    expect(claimChunkReload(t0 + CHUNK_RELOAD_INTERVAL_MS - 1, window.sessionStorage)).toBe(false);
    expect(claimChunkReload(t0 + CHUNK_RELOAD_INTERVAL_MS, window.sessionStorage)).toBe(true);
  });

  it('when a lazy chunk fails twice within 60 seconds, then the page reloads once and the second error goes to the error page', async () => {
    const reload = jest.fn();
    const load = withChunkReload(() => Promise.reject(chunkError()), reload);

    let settled = false;
    void load().then(
      () => (settled = true),
      () => (settled = true),
    );
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(reload).toHaveBeenCalledTimes(1);
    expect(settled).toBe(false); // the page is reloading: nothing renders meanwhile

    await expect(load()).rejects.toThrow('Failed to fetch dynamically imported module');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('when a lazy import fails for another reason, then it is not reloaded', async () => {
    const reload = jest.fn();
    const load = withChunkReload(() => Promise.reject(new Error('syntax error in module')), reload);
    await expect(load()).rejects.toThrow('syntax error in module');
    expect(reload).not.toHaveBeenCalled();
    expect(window.sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBeNull();
  });
});
