/**
 * The whole SPA in jsdom: route table and unmatched-route redirect, the logged-out front layout (top
 * navigation, side menu, phone drawer), page metadata from the CMS with the built-in fallback, and error
 * toasts with the server's message.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AxiosError, AxiosHeaders, type InternalAxiosRequestConfig } from 'axios';
import ConfigProvider from 'antd/es/config-provider';
import { getAllTags, getPageMeta, getPageUi } from '../../client/src/api/generated/operations';
import { ApiError, httpClient, request } from '../../client/src/api/http';
import { App } from '../../client/src/app/App';
import { ROUTES } from '../../client/src/app/routes';
import { createAppStore } from '../../client/src/app/store';
import { ToastLayer } from '../../client/src/components/ToastLayer';
import { notify } from '../../client/src/components/notify';
import { defaultPageMeta } from '../../client/src/features/cms';
import { footerFixture, tagFixture } from './fixtures';
import { renderUi } from './render';

jest.mock('../../client/src/api/generated/operations');
const getAllTagsMock = jest.mocked(getAllTags);
const getPageMetaMock = jest.mocked(getPageMeta);
const getPageUiMock = jest.mocked(getPageUi);

const homeMeta = {
  pageMeta: {
    page: 'home',
    title: 'Knack | Home from the CMS',
    meta: [{ property: 'description', content: 'Home description from the CMS' }],
    facebook: [{ property: 'og:title', content: 'Knack OG title' }],
    twitter: [{ property: 'twitter:card', content: 'summary' }],
  },
};

function setViewport(width: number, height: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  Object.defineProperty(window, 'innerHeight', { configurable: true, writable: true, value: height });
}

async function renderApp(path: string) {
  window.history.pushState(null, '', path);
  const store = createAppStore();
  renderUi(<App store={store} />);
  await screen.findByRole('heading', { level: 1, name: 'Get paid for every play and view.' });
  return store;
}

beforeEach(() => {
  setViewport(1280, 800);
  getAllTagsMock.mockReset().mockResolvedValue({ tags: tagFixture() });
  getPageMetaMock.mockReset().mockResolvedValue(homeMeta);
  getPageUiMock.mockReset().mockResolvedValue(footerFixture);
  document.title = 'Knack';
  document.head.querySelectorAll('meta').forEach((node) => node.remove());
});

describe('routes', () => {
  it('when the table is read, then it declares only built screens, open to guests as GUEST_ROUTE_NAMES lists them', () => {
    expect(ROUTES.map((route) => [route.name, route.path, route.guest])).toEqual([
      ['home', '/', true],
      ['confirm', '/confirm', true],
      ['auth', '/auth/:type?', true],
      ['explore', '/explore', true],
      ['exploreTag', '/explore/:tag', true],
      ['viewAll', '/viewall/:kind', true],
      ['viewall-kind', '/viewall/:kind/:sub', true],
      ['search', '/search/:slug?', false],
      ['userProfile', '/profile/:kind?', false],
      ['wallet', '/wallet', false],
      ['inbox', '/inbox', false],
      ['activity-history', '/activity-history', false],
      ['user-setting', '/user-setting', false],
      ['pricing', '/pricing', true],
      ['become', '/become', true],
      ['become-kind', '/become/:kind', true],
      ['earning', '/earning/:kind?', true],
      ['user-guide', '/user-guide/:tag?', true],
      ['blog', '/blog', true],
      ['blog-type', '/blog/:type', true],
      ['nft', '/nft', true],
      ['verify', '/verify', true],
      ['approve', '/approve', false],
      ['cancel', '/cancel', false],
      ['analytics', '/analytics', false],
      ['admin', '/admin/:section?', false],
      ['{name}Top50', '/:segment/:sub?', true],
      ['{hash}', '/:segment/:sub?', true],
      ['username', '/:segment/:sub?', true],
    ]);
  });

  it('when an unmatched path is opened, then the app redirects home', async () => {
    await renderApp('/no/such/page');
    expect(window.location.pathname).toBe('/');
    expect(await within(await screen.findByRole('region', { name: 'Music' })).findByText('Rock')).toBeTruthy();
  });
});

describe('front layout, logged out', () => {
  it('when on desktop, then the top navigation and the slim side menu show their logged-out entries', async () => {
    const store = await renderApp('/');
    const top = screen.getByRole('banner');
    expect(within(top).getByRole('link', { name: 'Knack home' }).getAttribute('href')).toBe('/');
    const main = within(top).getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'Explore' }).getAttribute('href')).toBe('/explore');
    expect(within(main).getByRole('link', { name: 'Pricing' }).getAttribute('href')).toBe('/pricing');
    for (const name of ['Login', 'Create account', 'Upload']) expect(within(top).getByRole('button', { name })).toBeTruthy();

    const side = screen.getByRole('navigation', { name: 'Side menu' });
    expect(
      within(side)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Log in', 'Join For Free', 'Upload', 'Pricing', 'Explore']);
    expect(screen.queryByRole('button', { name: 'Open menu' })?.closest('.kn-shell--phone')).toBeFalsy();

    fireEvent.click(within(top).getByRole('button', { name: 'Login' }));
    expect(store.getState().ui.modal).toBe('login');
    expect(await screen.findByRole('dialog', { name: 'Log in' })).toBeTruthy();
    fireEvent.click(within(top).getByRole('button', { name: 'Create account' }));
    expect(store.getState().ui.modal).toBe('signup');
    expect(await screen.findByRole('dialog', { name: 'Create account' })).toBeTruthy();
    fireEvent.click(within(side).getByRole('button', { name: 'Upload' }));
    // A visitor who asks to upload is asked to log in first (origin 'upload': the upload modal opens after).
    expect(store.getState().ui.modal).toBe('login');
    expect(store.getState().ui.modalProps.origin).toBe('upload');
  });

  it('when the viewport is a phone, then there is no sidebar and the hamburger opens the side menu drawer', async () => {
    setViewport(390, 844);
    const store = await renderApp('/');
    expect(store.getState().ui.device).toBe('phone');
    expect(store.getState().ui.orientation).toBe('portrait');
    expect(screen.queryByRole('navigation', { name: 'Side menu' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const drawer = await screen.findByRole('navigation', { name: 'Side menu' });
    expect(await within(drawer).findByRole('button', { name: 'Join For Free' })).toBeTruthy();
    expect(within(drawer).getByRole('link', { name: 'Explore' }).getAttribute('href')).toBe('/explore');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Log in' }));
    expect(store.getState().ui.modal).toBe('login');
    expect(store.getState().ui.sideMenuOpen).toBe(false);
    expect(await screen.findByRole('heading', { name: 'Log in to Knack' })).toBeTruthy();
  });

  it('when the window is resized, then device and orientation are re-read after 100 ms', async () => {
    const store = await renderApp('/');
    jest.useFakeTimers();
    try {
      setViewport(390, 844);
      act(() => {
        window.dispatchEvent(new Event('resize'));
      });
      await act(async () => {
        await jest.advanceTimersByTimeAsync(50);
      });
      expect(store.getState().ui.device).toBe('desktop');
      await act(async () => {
        await jest.advanceTimersByTimeAsync(60);
      });
      expect(store.getState().ui.device).toBe('phone');
      expect(store.getState().ui.orientation).toBe('portrait');
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('page metadata', () => {
  it('when the CMS answers, then its title and meta tags are applied (name for meta and twitter, property for og)', async () => {
    await renderApp('/');
    await waitFor(() => expect(document.title).toBe('Knack | Home from the CMS'));
    expect(getPageMetaMock).toHaveBeenCalledWith({ path: { page: 'home' } }, expect.objectContaining({ quiet: undefined }));
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('Home description from the CMS');
    expect(document.head.querySelector('meta[property="og:title"]')?.getAttribute('content')).toBe('Knack OG title');
    expect(document.head.querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe('summary');
  });

  it('when the CMS fails, then the built-in defaults are applied', async () => {
    getPageMetaMock.mockReset().mockRejectedValue(new ApiError('STRAPI Server Not found', 502, 'cms_unavailable'));
    await renderApp('/');
    const defaults = defaultPageMeta('home');
    await waitFor(() => expect(document.title).toBe(defaults.title));
    expect(document.head.querySelector('meta[name="description"]')?.getAttribute('content')).toBe(defaults.meta[0]!.content);
    expect(document.head.querySelector('meta[property="og:site_name"]')?.getAttribute('content')).toBe('Knack');
  });
});

describe('error toasts', () => {
  const realAdapter = httpClient().defaults.adapter;
  afterEach(() => {
    httpClient().defaults.adapter = realAdapter;
  });

  it("when a call fails, then a toast error shows the server's message", async () => {
    httpClient().defaults.adapter = async (config: InternalAxiosRequestConfig) => {
      const response = {
        status: 400,
        statusText: 'Bad Request',
        headers: new AxiosHeaders(),
        config,
        data: { message: 'id must be a 24-hex-digit id', code: 'bad_request' },
      };
      throw new AxiosError('Request failed with status code 400', 'ERR_BAD_REQUEST', config, null, response);
    };
    renderUi(
      <ConfigProvider>
        <ToastLayer />
      </ConfigProvider>,
    );
    await act(async () => {
      await expect(request('get', '/tag/{id}', { path: { id: 'nope' } })).rejects.toMatchObject({
        status: 400,
        message: 'id must be a 24-hex-digit id',
      });
    });
    // The toast is an alert: screen readers read it out as it appears.
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('id must be a 24-hex-digit id');
  });

  it('when a success is toasted, then it too is read out (an alert) and shows its text', async () => {
    renderUi(
      <ConfigProvider>
        <ToastLayer />
      </ConfigProvider>,
    );
    act(() => notify('success', 'Saved.'));
    expect((await screen.findByRole('alert')).textContent).toContain('Saved.');
  });
});
