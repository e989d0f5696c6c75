/**
 * Search in the top navigation: suggestions asked for once typing pauses 200 ms, at most 7,
 * each with its knack price; arrow keys, Enter and Escape; choosing one clears the box and opens the
 * piece; Enter alone shows every result at /search/{query}; the suggestions close 400 ms after the box
 * loses focus. The /search page lists titles (paged), artists and tags. No network: the generated
 * operations are mocked.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { getAllTags, getTitleSuggestions, searchContents, searchOwners, type GetTitleSuggestionsResult } from '../../client/src/api/generated/operations';
import { knackApi } from '../../client/src/api/generated/endpoints';
import { ApiError } from '../../client/src/api/http';
import { createAppStore } from '../../client/src/app/store';
import { matchesQuery, SearchBox } from '../../client/src/features/explore';
import { SearchPage } from '../../client/src/features/explore/testing';
import { TopNav } from '../../client/src/layouts/front';
import { contentPage, currentLocation, deferred, makeArtist, makeSuggestion, renderRoutes } from './explore-fixtures';
import { tagFixture } from './fixtures';
import { renderWithStore } from './render';

jest.mock('../../client/src/api/generated/operations');
const getTitleSuggestionsMock = jest.mocked(getTitleSuggestions);
const searchContentsMock = jest.mocked(searchContents);
const searchOwnersMock = jest.mocked(searchOwners);
const getAllTagsMock = jest.mocked(getAllTags);

const NINE = ['Blue Jazz Night', 'Blue Moon', 'Blue Car', 'Blue Sky', 'Blue Train', 'Blue Hour', 'Blue Note', 'Blue Eyes', 'Blue Wave'];

function renderSearch(path = '/', compact = false) {
  return renderRoutes(<Route path="/search/:slug?" element={<SearchPage />} />, { path, before: <SearchBox compact={compact} /> });
}

const box = () => screen.getByRole('combobox') as HTMLInputElement;
const type = (text: string) => fireEvent.change(box(), { target: { value: text } });
const press = (key: string) => fireEvent.keyDown(box(), { key });
/** Lets the clock run, then the answers of the calls it started arrive. */
async function wait(ms: number) {
  act(() => {
    jest.advanceTimersByTime(ms);
  });
  await act(async () => undefined);
}
const options = () => within(screen.getByRole('listbox', { hidden: true })).queryAllByRole('option', { hidden: true });

beforeEach(() => {
  getAllTagsMock.mockReset().mockResolvedValue({ tags: tagFixture() });
  getTitleSuggestionsMock
    .mockReset()
    .mockResolvedValue({ titles: NINE.map((title, index) => makeSuggestion(title, { knackPrice: index === 0 ? 0.99 : 0.05 })) });
  searchContentsMock.mockReset().mockResolvedValue(contentPage('Result', 2));
  searchOwnersMock.mockReset().mockResolvedValue({ users: [makeArtist('blue_band')], nextCursor: null });
});

describe('search box', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('when typing pauses 200 ms, then one call asks for 7 suggestions and at most 7 show, each with its price', async () => {
    renderSearch();
    expect(box().getAttribute('aria-expanded')).toBe('false');
    box().focus();
    type('b');
    await wait(100);
    type('bl');
    await wait(100);
    type('blu');
    await wait(199);
    expect(getTitleSuggestionsMock).not.toHaveBeenCalled();
    await wait(1);
    expect(getTitleSuggestionsMock).toHaveBeenCalledTimes(1);
    expect(getTitleSuggestionsMock.mock.calls[0]![0]).toEqual({ query: { q: 'blu', limit: 7 } });

    expect(box().getAttribute('aria-expanded')).toBe('true');
    const listbox = screen.getByRole('listbox', { name: 'Suggestions' });
    expect(box().getAttribute('aria-controls')).toBe(listbox.id);
    const shown = within(listbox).getAllByRole('option');
    expect(shown).toHaveLength(7);
    expect(shown[0]!.textContent).toContain('Blue Jazz Night');
    expect(shown[0]!.textContent).toContain('jane doe');
    expect(shown[0]!.textContent).toContain('$0.99');
    for (const option of shown.slice(1)) expect(option.textContent).toContain('$0.05');
  });

  it('when the arrows move through the suggestions and Enter is pressed, then that piece opens and the box is cleared', async () => {
    renderSearch('/explore');
    box().focus();
    type('blue');
    await wait(200);
    press('ArrowDown');
    press('ArrowDown');
    const [first, second] = options() as [HTMLElement, HTMLElement];
    expect(second.getAttribute('aria-selected')).toBe('true');
    expect(box().getAttribute('aria-activedescendant')).toBe(second.id);
    press('ArrowUp');
    expect(first.getAttribute('aria-selected')).toBe('true');
    expect(box().getAttribute('aria-activedescendant')).toBe(first.id);
    press('ArrowUp'); // wraps to the last
    expect(options()[6]!.getAttribute('aria-selected')).toBe('true');
    press('ArrowDown'); // and back to the first
    press('Enter');
    expect(currentLocation()).toBe('/jane_doe-blue-jazz-night');
    expect(box().value).toBe('');
    expect(box().getAttribute('aria-expanded')).toBe('false');
  });

  it('when a suggestion is clicked, then that piece opens and the box is cleared', async () => {
    renderSearch();
    box().focus();
    type('blue');
    await wait(200);
    const moon = options()[1]!;
    fireEvent.mouseDown(moon);
    fireEvent.click(moon);
    expect(currentLocation()).toBe('/jane_doe-blue-moon');
    expect(box().value).toBe('');
  });

  it('when Enter is pressed with no suggestion chosen, then every result for the query shows', async () => {
    renderSearch();
    box().focus();
    type('  blue jazz ');
    press('Enter');
    expect(currentLocation()).toBe('/search/blue%20jazz');
    await wait(0);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Results for “blue jazz”');
    expect(searchContentsMock.mock.calls[0]![0]).toEqual({ query: { q: 'blue jazz', limit: 24 } });
    expect(await screen.findByText('Result 1')).toBeTruthy();
    expect(await screen.findByRole('link', { name: /blue band/ })).toBeTruthy();
  });

  it('when Enter is pressed in an empty box, then nothing happens', () => {
    renderSearch('/explore');
    box().focus();
    type('   ');
    press('Enter');
    expect(currentLocation()).toBe('/explore');
  });

  it('when Escape is pressed, then the suggestions close; a second Escape empties the box', async () => {
    renderSearch();
    box().focus();
    type('blue');
    await wait(200);
    expect(box().getAttribute('aria-expanded')).toBe('true');
    press('Escape');
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect(box().value).toBe('blue');
    press('ArrowDown'); // reopens
    expect(box().getAttribute('aria-expanded')).toBe('true');
    press('Escape');
    press('Escape');
    expect(box().value).toBe('');
  });

  it('when the box loses focus, then the suggestions close 400 ms later, unless it gets the focus back', async () => {
    renderSearch();
    box().focus();
    type('blue');
    await wait(200);
    fireEvent.blur(box());
    await wait(399);
    expect(box().getAttribute('aria-expanded')).toBe('true');
    await wait(1);
    expect(box().getAttribute('aria-expanded')).toBe('false');

    fireEvent.focus(box());
    expect(box().getAttribute('aria-expanded')).toBe('true');
    fireEvent.blur(box());
    await wait(300);
    fireEvent.focus(box());
    await wait(500);
    expect(box().getAttribute('aria-expanded')).toBe('true');
  });

  it('when an older request is still running as typing goes on, then it is aborted', async () => {
    const slow = deferred<GetTitleSuggestionsResult>();
    let firstSignal: AbortSignal | undefined;
    getTitleSuggestionsMock.mockImplementationOnce((_args, options) => {
      firstSignal = options?.signal;
      return slow.promise;
    });
    renderSearch();
    box().focus();
    type('blue');
    await wait(200);
    type('blue m');
    expect(firstSignal?.aborted).toBe(true);
    await wait(200);
    await act(async () => slow.resolve({ titles: [makeSuggestion('Stale')] }));
    expect(options().map((option) => option.textContent)).not.toContain('Stale');
    expect(getTitleSuggestionsMock.mock.calls[1]![0]).toEqual({ query: { q: 'blue m', limit: 7 } });
    // The suggestions call fails quietly (no toast), saying why: Enter still searches.
    expect(getTitleSuggestionsMock.mock.calls[1]![1]).toMatchObject({ quiet: expect.stringMatching(/\S/) });
  });

  it('when a text is typed again a moment later, then its suggestions show from the cache without a new request', async () => {
    getTitleSuggestionsMock.mockImplementation(async ({ query }) => ({
      titles: (query.q === 'blue m' ? ['Blue Moon'] : ['Blue Jazz Night', 'Blue Car']).map((title) => makeSuggestion(title)),
    }));
    renderSearch();
    box().focus();
    type('blue');
    await wait(200);
    expect(options().map((option) => within(option).getByText(/^Blue/).textContent)).toEqual(['Blue Jazz Night', 'Blue Car']);
    type('blue m');
    await wait(200);
    expect(options().map((option) => within(option).getByText(/^Blue/).textContent)).toEqual(['Blue Moon']);
    expect(getTitleSuggestionsMock).toHaveBeenCalledTimes(2);

    type('blue');
    await wait(200);
    expect(options().map((option) => within(option).getByText(/^Blue/).textContent)).toEqual(['Blue Jazz Night', 'Blue Car']);
    expect(getTitleSuggestionsMock).toHaveBeenCalledTimes(2);
  });

  it('when nothing matches or the call fails, then the popup says so and offers every result', async () => {
    getTitleSuggestionsMock.mockRejectedValue(new ApiError('busy', 503, 'unavailable'));
    renderSearch();
    box().focus();
    type('zzz');
    await wait(200);
    expect(options()).toHaveLength(0);
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByText('No titles start with “zzz”.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /See all results for “zzz”/ }));
    expect(currentLocation()).toBe('/search/zzz');
    expect(await screen.findByText('Result 1')).toBeTruthy();
    expect(await screen.findByRole('link', { name: /blue band/ })).toBeTruthy();
  });

  it('when compact (phones), then a Search button opens the box, focused, and Close search folds it', () => {
    renderSearch('/', true);
    expect(screen.queryByRole('combobox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(document.activeElement).toBe(box());
    fireEvent.click(screen.getByRole('button', { name: 'Close search' }));
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});

describe('top navigation', () => {
  function setWidth(width: number) {
    Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  }
  afterEach(() => setWidth(1024));

  it('when the window is wide, then the bar has the search box; narrower than 1000 px, a Search button', () => {
    setWidth(1280);
    renderWithStore(<TopNav />, { store: createAppStore() });
    expect(within(screen.getByRole('search')).getByRole('combobox', { name: 'Search titles, artists and tags' })).toBeTruthy();
  });

  it('when the window is narrow, then a Search button stands for the box', () => {
    setWidth(800);
    renderWithStore(<TopNav />, { store: createAppStore() });
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.getByRole('button', { name: 'Search' })).toBeTruthy();
  });
});

describe('/search page', () => {
  it('when a query is given, then titles, artists and matching tags show in three sections', async () => {
    searchContentsMock.mockResolvedValueOnce(contentPage('Art piece', 2, 'next-1')).mockResolvedValueOnce(contentPage('More art', 1, null));
    searchOwnersMock.mockResolvedValue({ users: [makeArtist('art_lover')], nextCursor: null });
    renderSearch('/search/art');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Results for “art”');

    const titles = screen.getByRole('region', { name: 'Titles' });
    expect(await within(titles).findByText('Art piece 1')).toBeTruthy();
    expect(searchContentsMock.mock.calls[0]![0]).toEqual({ query: { q: 'art', limit: 24 } });
    fireEvent.click(within(titles).getByRole('button', { name: 'Load more' }));
    expect(await within(titles).findByText('More art 1')).toBeTruthy();
    expect(searchContentsMock.mock.calls[1]![0]).toEqual({ query: { q: 'art', cursor: 'next-1', limit: 24 } });
    await waitFor(() => expect(within(titles).queryByRole('button', { name: /Load more/ })).toBeNull());

    const artists = screen.getByRole('region', { name: 'Artists' });
    expect(
      within(artists)
        .getByRole('link', { name: /art lover/ })
        .getAttribute('href'),
    ).toBe('/art_lover');
    expect(searchOwnersMock.mock.calls[0]![0]).toEqual({ query: { q: 'art', limit: 12 } });

    const tags = screen.getByRole('region', { name: 'Tags' });
    const links = within(tags).getAllByRole('link');
    expect(links.map((link) => link.textContent?.replace(/\$.*/, ''))).toEqual(['Art', 'A.I. Art', 'Digital Art', 'Pixel Art']);
    expect(
      within(tags)
        .getByRole('link', { name: /Digital Art/ })
        .getAttribute('href'),
    ).toBe('/explore/digital-art');
    expect(within(tags).getByRole('link', { name: /Digital Art/ }).textContent).toContain('$0.99 / view');
  });

  it('when nothing matches, then each section says so', async () => {
    searchContentsMock.mockResolvedValue({ contents: [], nextCursor: null });
    searchOwnersMock.mockResolvedValue({ users: [], nextCursor: null });
    renderSearch('/search/qwerty');
    expect(await screen.findByText('No titles match “qwerty”.')).toBeTruthy();
    expect(await screen.findByText('No artists match “qwerty”.')).toBeTruthy();
    expect(screen.getByText('No tags match “qwerty”.')).toBeTruthy();
  });

  it('when no query is given, then it asks for one and searches nothing', async () => {
    const { store } = renderSearch('/search');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Search');
    await waitFor(() => expect(knackApi.endpoints.getAllTags.select()(store.getState()).status).toBe('fulfilled'));
    expect(searchContentsMock).not.toHaveBeenCalled();
    expect(searchOwnersMock).not.toHaveBeenCalled();
  });
});

describe('matchesQuery', () => {
  it('when every word of the query starts a word of the text, then it matches', () => {
    expect(matchesQuery('Hip Hop', 'hip h')).toBe(true);
    expect(matchesQuery('Architecture & Buildings', 'build')).toBe(true);
    expect(matchesQuery('A.I. Art', 'art')).toBe(true);
    expect(matchesQuery('Hip Hop', 'op')).toBe(false);
    expect(matchesQuery('Rock', '')).toBe(false);
  });
});
