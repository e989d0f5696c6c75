/**
 * Home page: Music, Art and Photos with their sub-tags, knack prices and type colours; skeletons while
 * loading; an error state whose Retry loads again. No network: the generated operations are mocked.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { getAllTags } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { HomePage } from '../../client/src/features/home/testing';
import { TYPE_COLORS } from '../../client/src/lib/tagColors';
import { formatKnackPrice, formatKnackPricePer } from '../../client/src/lib/formatKnackPrice';
import { groupTags } from '../../client/src/features/tags';
import { TagSections } from '../../client/src/components/tags/TagSections';
import { tagFixture } from './fixtures';
import { renderWithStore } from './render';
import { renderUi } from './render';

jest.mock('../../client/src/api/generated/operations');
const getAllTagsMock = jest.mocked(getAllTags);

function section(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

describe('knack price formatting', () => {
  it('when given a price, then it shows dollars with two decimals', () => {
    expect(formatKnackPrice(0.05)).toBe('$0.05');
    expect(formatKnackPrice(0.99)).toBe('$0.99');
    expect(formatKnackPrice(0.29)).toBe('$0.29');
    expect(formatKnackPrice(1.5)).toBe('$1.50');
    expect(formatKnackPrice(12.4)).toBe('$12.40');
  });

  it('when the price is missing or invalid, then the 0.05 default shows', () => {
    expect(formatKnackPrice(undefined)).toBe('$0.05');
    expect(formatKnackPrice(Number.NaN)).toBe('$0.05');
    expect(formatKnackPrice(-1)).toBe('$0.05');
  });

  it('when a type is given, then music is per play and art and photos per view', () => {
    expect(formatKnackPricePer(0.05, 'music')).toBe('$0.05 / play');
    expect(formatKnackPricePer(0.99, 'art')).toBe('$0.99 / view');
    expect(formatKnackPricePer(0.05, 'photos')).toBe('$0.05 / view');
  });
});

describe('groupTags', () => {
  it('when tags come in any order, then main tags are Music, Art, Photos with their own sub-tags', () => {
    const groups = groupTags(tagFixture());
    expect(groups.map((group) => group.main.name)).toEqual(['Music', 'Art', 'Photos']);
    expect(groups[0]!.subTags.map((tag) => tag.name)).toEqual(['Music 2', 'Rock', 'Hip Hop', 'Jazz']);
    expect(groups[1]!.subTags.map((tag) => tag.name)).toEqual(['A.I. Art', 'Digital Art', 'Pixel Art']);
    expect(groups[2]!.subTags.every((tag) => tag.type === 'photos')).toBe(true);
  });
});

describe('TagSections', () => {
  it('when tags are loaded, then each main tag lists its sub-tags with the knack price in its type colour', () => {
    renderUi(
      <MemoryRouter>
        <TagSections status="loaded" groups={groupTags(tagFixture())} onRetry={() => undefined} />
      </MemoryRouter>,
    );
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Music', 'Art', 'Photos']);

    const music = section('Music');
    expect(within(music).getByText('Rock')).toBeTruthy();
    expect(within(music).getAllByText('$0.05 / play')).toHaveLength(3);
    const music2 = within(music).getByText('Music 2').closest('a')!;
    expect(within(music2).getByText('$0.99 / play')).toBeTruthy();
    expect(music2.getAttribute('href')).toBe('/explore/music-2');
    expect(within(music).queryByText('Cars')).toBeNull();
    expect(music.style.getPropertyValue('--kn-type')).toBe(TYPE_COLORS.music.color);

    const art = section('Art');
    const digitalArt = within(art).getByText('Digital Art').closest('a')!;
    expect(within(digitalArt).getByText('$0.99 / view')).toBeTruthy();
    expect(art.style.getPropertyValue('--kn-type')).toBe(TYPE_COLORS.art.color);

    const photos = section('Photos');
    expect(within(photos).getByText('Architecture & Buildings')).toBeTruthy();
    expect(within(photos).getAllByText('$0.05 / view')).toHaveLength(4);
    expect(photos.style.getPropertyValue('--kn-type')).toBe(TYPE_COLORS.photos.color);
  });

  it('when the type colours are read, then music is red, art green and photos orange', () => {
    const hue = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      const d = max - min;
      const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
      return (h * 60 + 360) % 360;
    };
    expect(hue(TYPE_COLORS.music.color) < 10 || hue(TYPE_COLORS.music.color) > 345).toBe(true);
    expect(hue(TYPE_COLORS.art.color)).toBeGreaterThan(90);
    expect(hue(TYPE_COLORS.art.color)).toBeLessThan(160);
    expect(hue(TYPE_COLORS.photos.color)).toBeGreaterThan(20);
    expect(hue(TYPE_COLORS.photos.color)).toBeLessThan(45);
  });

  it('when loading, then skeletons show and no prices', () => {
    renderUi(
      <MemoryRouter>
        <TagSections status="loading" groups={[]} onRetry={() => undefined} />
      </MemoryRouter>,
    );
    expect(screen.getByLabelText('Loading tags').getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByText(/\/ play/)).toBeNull();
  });

  it('when the call failed, then the message and a Retry button show', () => {
    const onRetry = jest.fn();
    renderUi(
      <MemoryRouter>
        <TagSections status="failed" groups={[]} error="The server is busy" onRetry={onRetry} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('alert').textContent).toContain('The server is busy');
    fireEvent.click(screen.getByRole('button', { name: /Retry/ }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe('HomePage', () => {
  beforeEach(() => getAllTagsMock.mockReset());

  it('when opened, then it shows the offer and loads the tags', async () => {
    getAllTagsMock.mockResolvedValue({ tags: tagFixture() });
    renderWithStore(<HomePage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Get paid for every play and view.');
    expect(screen.getByText('$0.05')).toBeTruthy();
    expect(screen.getByText('90%')).toBeTruthy();
    expect(screen.getByText('10%')).toBeTruthy();
    expect(screen.getByLabelText('Loading tags')).toBeTruthy();

    expect(await screen.findByText('Hip Hop')).toBeTruthy();
    expect(getAllTagsMock).toHaveBeenCalledTimes(1);
    expect(within(section('Art')).getByText('Pixel Art')).toBeTruthy();
    expect(screen.queryByLabelText('Loading tags')).toBeNull();
  });

  it('when the call fails, then Retry calls it again and the tags show', async () => {
    getAllTagsMock.mockRejectedValueOnce(new ApiError('Tags are unavailable', 503, 'unavailable'));
    getAllTagsMock.mockResolvedValueOnce({ tags: tagFixture() });
    renderWithStore(<HomePage />);

    expect((await screen.findByRole('alert')).textContent).toContain('Tags are unavailable');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Retry/ }));
    });
    expect(await screen.findByText('Jazz')).toBeTruthy();
    expect(getAllTagsMock).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('when Join For Free or Upload is pressed by a visitor, then signup opens, or login that then opens the upload modal', async () => {
    getAllTagsMock.mockResolvedValue({ tags: [] });
    const { store } = renderWithStore(<HomePage />);
    fireEvent.click(screen.getByRole('button', { name: 'Join For Free' }));
    expect(store.getState().ui.modal).toBe('signup');
    fireEvent.click(screen.getByRole('button', { name: /Upload your work/ }));
    // Uploading is for members: a visitor gets the login modal, which opens the upload modal once signed in.
    expect(store.getState().ui.modal).toBe('login');
    expect(store.getState().ui.modalProps).toMatchObject({ origin: 'upload', callback: { type: 'ui/modalOpened', payload: { name: 'upload' } } });
    expect(await screen.findByText('No categories yet')).toBeTruthy();
  });
});
