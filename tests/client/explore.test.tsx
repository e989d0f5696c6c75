/**
 * Explore: the tabs choose the feed kind requested and live in the URL, the tag chips and the artists strip
 * filter the feed and clear when chosen again, paging appends by `nextCursor` and stops at null without asking
 * for a page twice, a feed seen a moment ago shows again from the cache, a late answer never replaces the feed chosen since, cards show their type colour, knack price and monetized mark
 * and open the content detail modal; /viewall lists one kind. No network: the generated operations are mocked.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router-dom';
import {
  getAllTags,
  getArtists,
  getContentsByKind,
  getTrendingArtists,
  type GetContentsByKindArgs,
  type GetContentsByKindResult,
} from '../../client/src/api/generated/operations';
import type { RequestOptions } from '../../client/src/api/http';
import { ContentGrid } from '../../client/src/components/content/ContentGrid';
import { ExplorePage, ViewAllPage } from '../../client/src/features/explore/testing';
import { TYPE_COLORS } from '../../client/src/lib/tagColors';
import { contentPage, currentLocation, deferred, FakeIntersectionObserver, makeArtist, makeContent, renderRoutes } from './explore-fixtures';
import { tagFixture } from './fixtures';
import { renderWithStore } from './render';

jest.mock('../../client/src/api/generated/operations');
const getContentsByKindMock = jest.mocked(getContentsByKind);
const getAllTagsMock = jest.mocked(getAllTags);
const getTrendingArtistsMock = jest.mocked(getTrendingArtists);
const getArtistsMock = jest.mocked(getArtists);

function renderExplore(path = '/explore') {
  return renderRoutes(
    <>
      <Route path="/explore" element={<ExplorePage />} />
      <Route path="/explore/:tag" element={<ExplorePage />} />
      <Route path="/viewall/:kind" element={<ViewAllPage />} />
      <Route path="/viewall/:kind/:sub" element={<ViewAllPage />} />
    </>,
    { path },
  );
}

/** The arguments of the n-th feed call (1-based), or of the last one. */
const feedCall = (n?: number): GetContentsByKindArgs => {
  const calls = getContentsByKindMock.mock.calls;
  return calls[(n ?? calls.length) - 1]![0];
};
const feedGrid = () => screen.findByRole('list', { name: /pieces$/ });

let ada: ReturnType<typeof makeArtist>;

beforeEach(() => {
  ada = makeArtist('ada_lovelace');
  FakeIntersectionObserver.instances = [];
  getAllTagsMock.mockReset().mockResolvedValue({ tags: tagFixture() });
  // Each feed's pieces are named after its filters ("popular Music 1"), so a test can tell which feed shows.
  getContentsByKindMock
    .mockReset()
    .mockImplementation(async ({ path, query }) =>
      contentPage([path.kind, query?.tag, query?.subTag, query?.ownerId && 'artist'].filter(Boolean).join(' '), 3),
    );
  getTrendingArtistsMock.mockReset().mockResolvedValue({ users: [ada, makeArtist('grace_hopper')], nextCursor: null });
  getArtistsMock.mockReset().mockResolvedValue({ users: [makeArtist('newest_artist')], nextCursor: null });
});

describe('Explore tabs', () => {
  it('when opened, then Featured is the chosen tab and the featured feed is requested without filters', async () => {
    renderExplore();
    expect(screen.getByRole('heading', { level: 1, name: 'Explore' })).toBeTruthy();
    expect(screen.getByLabelText('Featured pieces: loading').getAttribute('aria-busy')).toBe('true');
    const grid = await feedGrid();
    expect(within(grid).getAllByRole('article')).toHaveLength(3);
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Popular', 'Featured', 'Trending', 'On the Radar']);
    expect(screen.getByRole('tab', { name: 'Featured' }).getAttribute('aria-selected')).toBe('true');
    expect(getContentsByKindMock).toHaveBeenCalledTimes(1);
    expect(feedCall()).toEqual({ path: { kind: 'featured' }, query: { limit: 24 } });
  });

  it('when a tab is chosen, then its kind is requested and the tab goes into the URL (Featured, the default, leaves it)', async () => {
    renderExplore();
    await feedGrid();
    fireEvent.click(screen.getByRole('tab', { name: 'Popular' }));
    expect(currentLocation()).toBe('/explore?tab=popular');
    expect(await screen.findByText('popular 1')).toBeTruthy();
    expect(feedCall().path.kind).toBe('popular');
    fireEvent.click(screen.getByRole('tab', { name: 'On the Radar' }));
    expect(await screen.findByText('radar 1')).toBeTruthy();
    expect(currentLocation()).toBe('/explore?tab=radar');
    fireEvent.click(screen.getByRole('tab', { name: 'Featured' }));
    expect(await screen.findByText('featured 1')).toBeTruthy();
    expect(currentLocation()).toBe('/explore');
  });

  it('when the URL names a tab, then that feed is the first one requested', async () => {
    renderExplore('/explore?tab=trending');
    expect(await screen.findByText('trending 1')).toBeTruthy();
    expect(getContentsByKindMock).toHaveBeenCalledTimes(1);
    expect(feedCall().path.kind).toBe('trending');
    expect(screen.getByRole('tab', { name: 'Trending' }).getAttribute('aria-selected')).toBe('true');
  });

  it('when the URL names no known tab, then Featured shows', async () => {
    renderExplore('/explore?tab=nonsense');
    expect(await screen.findByText('featured 1')).toBeTruthy();
  });
});

describe('tag chips', () => {
  it('when Music then Rock are chosen, then the feed is filtered by the main tag and the sub-tag; choosing each again clears it', async () => {
    renderExplore('/explore?tab=popular');
    await feedGrid();
    const categories = screen.getByRole('group', { name: 'Categories' });
    expect(
      within(categories)
        .getAllByRole('button')
        .map((chip) => chip.textContent),
    ).toEqual(['Music', 'Art', 'Photos']);
    expect(screen.queryByRole('group', { name: 'Music sub-tags' })).toBeNull();

    fireEvent.click(within(categories).getByRole('button', { name: 'Music' }));
    expect(currentLocation()).toBe('/explore/music?tab=popular');
    await waitFor(() => expect(feedCall().query).toEqual({ tag: 'Music', limit: 24 }));
    expect(feedCall().path.kind).toBe('popular');
    expect(screen.getByRole('heading', { level: 1, name: 'Explore Music' })).toBeTruthy();
    expect(within(categories).getByRole('button', { name: 'Music' }).getAttribute('aria-pressed')).toBe('true');
    const subTags = screen.getByRole('group', { name: 'Music sub-tags' });
    expect(
      within(subTags)
        .getAllByRole('button')
        .map((chip) => chip.textContent),
    ).toEqual(['Music 2', 'Rock', 'Hip Hop', 'Jazz']);

    fireEvent.click(within(subTags).getByRole('button', { name: 'Rock' }));
    expect(currentLocation()).toBe('/explore/rock?tab=popular');
    await waitFor(() => expect(feedCall().query).toEqual({ tag: 'Music', subTag: 'Rock', limit: 24 }));
    expect(
      within(screen.getByRole('group', { name: 'Music sub-tags' }))
        .getByRole('button', { name: 'Rock' })
        .getAttribute('aria-pressed'),
    ).toBe('true');

    expect(await screen.findByText('popular Music Rock 1')).toBeTruthy();
    const requests = getContentsByKindMock.mock.calls.length;

    // The feeds chosen again were loaded a moment ago: they show again from the cache, with no new request.
    fireEvent.click(within(screen.getByRole('group', { name: 'Music sub-tags' })).getByRole('button', { name: 'Rock' }));
    expect(currentLocation()).toBe('/explore/music?tab=popular');
    expect(await screen.findByText('popular Music 1')).toBeTruthy();
    expect(screen.queryByText('popular Music Rock 1')).toBeNull();

    fireEvent.click(within(categories).getByRole('button', { name: 'Music' }));
    expect(currentLocation()).toBe('/explore?tab=popular');
    expect(await screen.findByText('popular 1')).toBeTruthy();
    expect(screen.queryByText('popular Music 1')).toBeNull();
    expect(getContentsByKindMock).toHaveBeenCalledTimes(requests);
  });

  it('when the URL names a sub-tag, then the feed waits for the tags and asks for it under its main tag', async () => {
    const tags = deferred<{ tags: ReturnType<typeof tagFixture> }>();
    getAllTagsMock.mockReturnValue(tags.promise);
    renderExplore('/explore/hip-hop');
    await act(async () => undefined);
    expect(getContentsByKindMock).not.toHaveBeenCalled();
    await act(async () => tags.resolve({ tags: tagFixture() }));
    await waitFor(() => expect(getContentsByKindMock).toHaveBeenCalledTimes(1));
    expect(feedCall()).toEqual({ path: { kind: 'featured' }, query: { tag: 'Music', subTag: 'Hip Hop', limit: 24 } });
    expect(screen.getByRole('heading', { level: 1, name: 'Explore Hip Hop' })).toBeTruthy();
  });

  it('when the URL names no tag that exists, then it says so and asks for nothing', async () => {
    renderExplore('/explore/polka');
    expect(await screen.findByText(/There is no category called “polka”/)).toBeTruthy();
    expect(getContentsByKindMock).not.toHaveBeenCalled();
  });
});

describe('artists strip', () => {
  it('when an artist is chosen, then only their pieces are requested; choosing them again clears the filter', async () => {
    renderExplore();
    await feedGrid();
    const strip = await screen.findByRole('list', { name: 'Filter by artist' });
    const adaId = ada.user.id;
    const adaButton = within(strip).getByRole('button', { name: /ada lovelace/ });
    expect(adaButton.getAttribute('aria-pressed')).toBe('false');
    expect(adaButton.textContent).toContain('3 pieces · 12 followers');

    fireEvent.click(adaButton);
    expect(currentLocation()).toBe(`/explore?artist=${adaId}`);
    await waitFor(() => expect(feedCall().query).toEqual({ ownerId: adaId, limit: 24 }));
    expect(
      within(strip)
        .getByRole('button', { name: /ada lovelace/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');

    expect(await screen.findByText('featured artist 1')).toBeTruthy();
    const requests = getContentsByKindMock.mock.calls.length;

    // The whole feed was loaded a moment ago: it shows again from the cache, with no new request.
    fireEvent.click(within(strip).getByRole('button', { name: /ada lovelace/ }));
    expect(currentLocation()).toBe('/explore');
    expect(await screen.findByText('featured 1')).toBeTruthy();
    expect(screen.queryByText('featured artist 1')).toBeNull();
    expect(getContentsByKindMock).toHaveBeenCalledTimes(requests);
    expect(getArtistsMock).not.toHaveBeenCalled();
  });

  it('when no artist trends this week, then the newest artists show', async () => {
    getTrendingArtistsMock.mockResolvedValue({ users: [], nextCursor: null });
    renderExplore();
    const strip = await screen.findByRole('list', { name: 'Filter by artist' });
    expect(within(strip).getByRole('button', { name: /newest artist/ })).toBeTruthy();
    expect(getArtistsMock).toHaveBeenCalledWith({ query: { limit: 12 } }, expect.anything());
  });
});

describe('paging', () => {
  it('when Load more is pressed, then the next page is appended, and at nextCursor null the button goes', async () => {
    getContentsByKindMock
      .mockResolvedValueOnce(contentPage('First', 2, 'cursor-2'))
      .mockResolvedValueOnce(contentPage('Second', 2, 'cursor-3'))
      .mockResolvedValueOnce(contentPage('Third', 1, null));
    renderExplore();
    await screen.findByText('First 1');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Second 2')).toBeTruthy();
    expect(feedCall(2).query).toEqual({ cursor: 'cursor-2', limit: 24 });
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Third 1')).toBeTruthy();
    expect(feedCall(3).query).toEqual({ cursor: 'cursor-3', limit: 24 });
    const titles = within(await feedGrid())
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(titles).toEqual(['First 1', 'First 2', 'Second 1', 'Second 2', 'Third 1']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(getContentsByKindMock).toHaveBeenCalledTimes(3);
  });

  it('when the end scrolls into view, then the next page loads once however often the observer fires', async () => {
    Object.defineProperty(window, 'IntersectionObserver', { configurable: true, writable: true, value: FakeIntersectionObserver });
    try {
      const second = deferred<GetContentsByKindResult>();
      getContentsByKindMock.mockResolvedValueOnce(contentPage('First', 2, 'cursor-2')).mockReturnValueOnce(second.promise);
      renderExplore();
      await screen.findByText('First 1');
      act(() => {
        FakeIntersectionObserver.enterAll();
        FakeIntersectionObserver.enterAll();
      });
      expect(getContentsByKindMock).toHaveBeenCalledTimes(2);
      expect(feedCall(2).query).toEqual({ cursor: 'cursor-2', limit: 24 });
      // While the page is on its way the button says so and nothing else is asked for.
      expect(await screen.findByRole('button', { name: /Loading/ })).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: /Loading/ }));
      expect(getContentsByKindMock).toHaveBeenCalledTimes(2);
      await act(async () => second.resolve(contentPage('Second', 1, null)));
      expect(await screen.findByText('Second 1')).toBeTruthy();
      act(() => FakeIntersectionObserver.enterAll());
      expect(getContentsByKindMock).toHaveBeenCalledTimes(2);
    } finally {
      delete (window as { IntersectionObserver?: unknown }).IntersectionObserver;
    }
  });

  it('when the filters change while a page loads, then its late answer is not shown, and is kept for when that feed is chosen again', async () => {
    const slow = deferred<GetContentsByKindResult>();
    getContentsByKindMock.mockImplementationOnce(() => slow.promise);
    renderExplore();
    await waitFor(() => expect(getContentsByKindMock).toHaveBeenCalledTimes(1));
    fireEvent.click(screen.getByRole('tab', { name: 'Trending' }));
    expect(await screen.findByText('trending 1')).toBeTruthy();
    await act(async () => slow.resolve(contentPage('Late featured', 2)));
    expect(screen.queryByText('Late featured 1')).toBeNull();
    expect(screen.getByText('trending 1')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Featured' }));
    expect(await screen.findByText('Late featured 1')).toBeTruthy();
    expect(getContentsByKindMock).toHaveBeenCalledTimes(2);
  });

  it('when the feed is empty, then the empty state says what is missing', async () => {
    getContentsByKindMock.mockResolvedValue({ contents: [], nextCursor: null });
    renderExplore('/explore/rock?tab=trending');
    // The loading placeholder is a status too, until the empty state replaces it.
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Nothing trending under Rock yet.'));
  });
});

describe('content cards', () => {
  it('when a piece is listed, then its thumbnail, title, owner, price, type colour and monetization show', async () => {
    getContentsByKindMock.mockResolvedValue({
      contents: [
        makeContent({
          title: 'Blue Jazz Night',
          ownerName: 'miles_d',
          ownerUsername: 'miles_d',
          knackRate: 0.99,
          isPaidOut: true,
          reactedCount: 1234,
          duration: 185,
        }),
        makeContent({
          title: 'Red Car',
          type: 'photos',
          ownerUsername: 'sam_p',
          ownerName: 'sam_p',
          isPaidOut: false,
          setting: { public: true, private: false, followers: false, hidePlayCount: false, hideViewCount: true },
          // The API sends a count its owner hides only to the owner and admins.
          reactedCount: null,
        }),
      ],
      nextCursor: null,
    });
    renderExplore();
    const [music, photo] = within(await feedGrid()).getAllByRole('article') as [HTMLElement, HTMLElement];

    expect(within(music).getByRole('heading', { level: 3 }).textContent).toBe('Blue Jazz Night');
    expect(within(music).getByRole('link', { name: 'Blue Jazz Night' }).getAttribute('href')).toBe('/miles_d-blue-jazz-night');
    const owner = within(music).getByRole('link', { name: 'miles d' });
    expect(owner.getAttribute('href')).toBe('/miles_d');
    expect(within(music).getByText('$0.99 / play')).toBeTruthy();
    expect(within(music).getByRole('img', { name: 'Monetized' })).toBeTruthy();
    expect(within(music).getByText('3:05')).toBeTruthy();
    expect(music.textContent).toContain('1.2k');
    expect(music.style.getPropertyValue('--kn-type')).toBe(TYPE_COLORS.music.color);
    // The first row is what the page shows first: its images load at once, first, at the size shown.
    const img = music.querySelector('img')!;
    expect(img.getAttribute('loading')).toBe('eager');
    expect(img.getAttribute('fetchpriority')).toBe('high');
    expect(img.getAttribute('src')).toMatch(/\.m\.webp$/);
    expect(img.getAttribute('srcset')).toMatch(/\.thumb\.webp 240w, .*\.m\.webp 640w$/);
    expect(img.getAttribute('sizes')).toBe('(max-width: 599.98px) 50vw, (max-width: 767.98px) 33vw, 240px');
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['640', '640']);

    expect(within(photo).getByText('$0.05 / view')).toBeTruthy();
    expect(within(photo).getByRole('img', { name: 'Not monetized yet' })).toBeTruthy();
    expect(photo.style.getPropertyValue('--kn-type')).toBe(TYPE_COLORS.photos.color);
    expect(photo.textContent).not.toContain('views'); // the owner hides the view count
  });

  it('when the feed has more than a row, then the cards after the first row load their images lazily', async () => {
    getContentsByKindMock.mockResolvedValue({ contents: Array.from({ length: 7 }, (_, i) => makeContent({ title: `piece ${i + 1}` })), nextCursor: null });
    renderExplore();
    const images = within(await feedGrid())
      .getAllByRole('article')
      .map((card) => card.querySelector('img')!);
    expect(images.map((image) => image.getAttribute('loading'))).toEqual(['eager', 'eager', 'eager', 'eager', 'eager', 'lazy', 'lazy']);
    expect(images.map((image) => image.getAttribute('fetchpriority'))).toEqual(['high', 'high', 'high', 'high', 'high', 'auto', 'auto']);
  });

  it('when a card is chosen, then the content detail modal opens on it with the list as siblings', async () => {
    const { store } = renderExplore();
    const grid = await feedGrid();
    fireEvent.click(within(grid).getByRole('link', { name: 'featured 2' }));
    const detail = store.getState().contentDetail;
    expect(detail.open).toBe(true);
    expect(detail.content?.title).toBe('featured 2');
    expect(detail.siblings.map((piece) => piece.title)).toEqual(['featured 1', 'featured 2', 'featured 3']);
    expect(currentLocation()).toBe('/explore');
  });

  it('when a fixed list is given, then the grid shows it without paging', () => {
    renderWithStore(<ContentGrid items={[makeContent({ title: 'Only one' })]} label="Mine" />);
    expect(within(screen.getByRole('list', { name: 'Mine' })).getByText('Only one')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});

describe('/viewall', () => {
  it('when a kind and a sub-tag are named, then that feed under that sub-tag is listed', async () => {
    renderExplore('/viewall/popular/jazz');
    expect(await screen.findByRole('heading', { level: 1, name: 'Popular in Jazz' })).toBeTruthy();
    await waitFor(() => expect(getContentsByKindMock).toHaveBeenCalledTimes(1));
    expect(feedCall()).toEqual({ path: { kind: 'popular' }, query: { tag: 'Music', subTag: 'Jazz', limit: 24 } });
    expect(screen.getByRole('link', { name: /Explore/ }).getAttribute('href')).toBe('/explore/jazz?tab=popular');
  });

  it('when only a kind is named, then the whole feed is listed; the new feed too', async () => {
    renderExplore('/viewall/new');
    expect(await screen.findByText('new 1')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'New' })).toBeTruthy();
    expect(feedCall()).toEqual({ path: { kind: 'new' }, query: { limit: 24 } });
  });

  it('when the kind is unknown, then it goes to Explore', async () => {
    renderExplore('/viewall/best');
    await waitFor(() => expect(currentLocation()).toBe('/explore'));
  });

  it('when View all is followed from a tab and tag, then it leads to that list', async () => {
    renderExplore('/explore/art?tab=trending');
    await screen.findByText('trending Art 1');
    expect(screen.getByRole('link', { name: /View all/ }).getAttribute('href')).toBe('/viewall/trending/art');
  });
});
