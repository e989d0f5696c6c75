/**
 * The content detail modal and the single-segment routes: a piece opens over the page it was chosen on and
 * the address becomes its share link (closing, or the back button, returns); the arrows, the ← → keys and
 * swipes (past 20 px on phones, 40 px otherwise) step through its siblings; it shows the tag, type, price,
 * and the monetized check or the dollar sign; the share link copies with a 'copied' toast; a song draws its
 * stored waveform and plays; the strips below come from the feeds; a member's comment shows at the top with the
 * count, and the comments are read again. A share link opens the piece over its owner's profile;
 * `{name}-music-top-50` is the chart, a plain segment a profile.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  addComment,
  getCommentsByContent,
  getContentByLink,
  getContentDetail,
  getContentsByKind,
  getProfileByUsername,
  getTop50Chart,
  getTrendingArtists,
} from '../../client/src/api/generated/operations';
import { detailOpened } from '../../client/src/lib/contentEvents';
import { parsePath } from '../../client/src/lib/links';
import { makeUser, storeAccount } from './auth-fixtures';
import {
  cardLink,
  detailDialog,
  janeCard,
  makeArtist,
  makeContent,
  path,
  renderAt,
  shownTitle,
  stubMedia,
  swipe,
  toastTexts,
  useJaneWorld,
} from './profile-fixtures';
import { mockMemberCalls } from './upload-fixtures';
import { sentEventNames } from './event-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();

/** Jane's profile with the first of her pieces opened from the grid. */
async function openFromProfile(title = 'Blue Hour', device: 'desktop' | 'phone' = 'desktop') {
  const app = renderAt('/jane_doe', device);
  fireEvent.click(await cardLink(title));
  const dialog = await detailDialog(title);
  return { ...app, dialog };
}

const stage = () => document.querySelector('.kn-detail__stage')!;

describe('opening and closing', () => {
  it('when a card is chosen, then the modal shows the piece over the profile and the address is its share link; closing goes back', async () => {
    const { dialog, store } = await openFromProfile();
    expect(path()).toBe('/jane_doe-blue-hour');
    // The profile stays rendered beneath.
    expect(screen.getByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();
    const owner = dialog.getByRole('link', { name: /jane doe/i });
    expect(owner.getAttribute('href')).toBe('/jane_doe');
    expect(dialog.getByText('Lisbon at dusk.')).toBeTruthy();
    expect(dialog.getByText('Photos')).toBeTruthy();
    expect(dialog.getByText('Travel')).toBeTruthy();
    expect(dialog.getByRole('img', { name: 'Not monetized' })).toBeTruthy();
    expect(dialog.getByText('$0.05 / view')).toBeTruthy();
    expect(await dialog.findByText('2 comments')).toBeTruthy();
    expect(jest.mocked(getContentDetail)).toHaveBeenCalledWith({ path: { contentId: world.pieces[0]!.id, userId: 'guest' } }, expect.anything());

    fireEvent.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(path()).toBe('/jane_doe'));
    expect(store.getState().contentDetail.open).toBe(false);
  });

  it('when the back button is pressed, then the modal closes and the profile is the address again', async () => {
    const { store } = await openFromProfile();
    act(() => window.history.back());
    await waitFor(() => expect(store.getState().contentDetail.open).toBe(false));
    expect(path()).toBe('/jane_doe');
  });

  it('when the piece is monetized, then a check shows instead of the dollar sign, with its knack price', async () => {
    const { dialog } = await openFromProfile('Red Fox');
    expect(dialog.getByRole('img', { name: 'Monetized' })).toBeTruthy();
    expect(dialog.queryByRole('img', { name: 'Not monetized' })).toBeNull();
    expect(dialog.getByText('$0.99 / view')).toBeTruthy();
  });
});

describe('stepping through the siblings', () => {
  it('when the arrows are pressed, then the pieces of the grid show in order and the address follows', async () => {
    const { dialog } = await openFromProfile();
    const previous = dialog.getByRole('button', { name: 'Previous piece' }) as HTMLButtonElement;
    const next = dialog.getByRole('button', { name: 'Next piece' }) as HTMLButtonElement;
    expect(previous.disabled).toBe(true);
    expect(dialog.getByText('1 / 3')).toBeTruthy();
    fireEvent.click(next);
    expect(shownTitle()).toBe('Red Fox');
    await waitFor(() => expect(path()).toBe('/jane_doe-red-fox'));
    fireEvent.click(next);
    expect(shownTitle()).toBe('Night Drive');
    expect(next.disabled).toBe(true);
    fireEvent.click(previous);
    expect(shownTitle()).toBe('Red Fox');
    // Stepping replaced the entry: one step back leaves the modal.
    act(() => window.history.back());
    await waitFor(() => expect(path()).toBe('/jane_doe'));
  });

  it('when ← and → are pressed, then the previous and next pieces show; keys typed in a field do not step', async () => {
    await openFromProfile();
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(shownTitle()).toBe('Red Fox');
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(shownTitle()).toBe('Night Drive');
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(shownTitle()).toBe('Night Drive');
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(shownTitle()).toBe('Red Fox');
    fireEvent.keyDown(screen.getByLabelText('Share link'), { key: 'ArrowLeft' });
    expect(shownTitle()).toBe('Red Fox');
  });

  it('when swiping on a desktop, then 40 px is not enough and 41 px steps', async () => {
    await openFromProfile();
    swipe(stage(), -40);
    expect(shownTitle()).toBe('Blue Hour');
    swipe(stage(), -41);
    expect(shownTitle()).toBe('Red Fox');
    swipe(stage(), 60, 80); // mostly vertical: a scroll, not a swipe
    expect(shownTitle()).toBe('Red Fox');
    swipe(stage(), 45);
    expect(shownTitle()).toBe('Blue Hour');
  });

  it('when swiping on a phone, then 21 px steps (20 px does not) and the modal fills the screen', async () => {
    await openFromProfile('Blue Hour', 'phone');
    expect(document.querySelector('.kn-detail-modal--phone')).toBeTruthy();
    swipe(stage(), -20);
    expect(shownTitle()).toBe('Blue Hour');
    swipe(stage(), -21);
    expect(shownTitle()).toBe('Red Fox');
    swipe(stage(), 21);
    expect(shownTitle()).toBe('Blue Hour');
  });
});

describe('the share link', () => {
  it('when Copy is pressed, then the full link is copied and "URL copied." shows; a refusal shows the reason', async () => {
    const writeText = jest.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('Permission denied'));
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const { dialog } = await openFromProfile();
    expect((dialog.getByLabelText('Share link') as HTMLInputElement).value).toBe(`${window.location.origin}/jane_doe-blue-hour`);
    fireEvent.click(dialog.getByRole('button', { name: /copy/i }));
    await waitFor(() => expect(toastTexts()).toContain('URL copied.'));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/jane_doe-blue-hour`);
    fireEvent.click(dialog.getByRole('button', { name: /copy/i }));
    await waitFor(() => expect(toastTexts()).toContain('Failed to copy text: Permission denied'));
  });
});

describe('media', () => {
  it('when a song opens, then its stored peaks are drawn and play/pause drive the audio', async () => {
    const media = stubMedia([0.1, 0.8, 0.5, 1]);
    const { dialog } = await openFromProfile('Night Drive');
    await waitFor(() => expect(media.fetchMock).toHaveBeenCalledWith('/files/night-peaks.json', expect.anything()));
    await waitFor(() => expect(media.fillRect).toHaveBeenCalled());
    expect(dialog.getByText('0:00 / 3:07')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Play' }));
    expect(media.play).toHaveBeenCalled();
    fireEvent.click(await dialog.findByRole('button', { name: 'Pause' }));
    expect(media.pause).toHaveBeenCalled();
    expect(await dialog.findByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('when the picture is clicked, then the full image opens; a click zooms it and × closes it', async () => {
    const { dialog } = await openFromProfile();
    fireEvent.click(dialog.getByRole('button', { name: 'Show the full image of Blue Hour' }));
    const full = within(await waitFor(() => document.querySelector<HTMLElement>('.kn-full-image [role="dialog"]')!));
    const image = full.getByRole('img', { name: 'Blue Hour' });
    expect(image.getAttribute('src')).toBe(world.pieces[0]!.filePath);
    fireEvent.click(image);
    expect(image.closest('.is-zoomed')).toBeTruthy();
    fireEvent.click(image);
    expect(image.closest('.is-zoomed')).toBeNull();
    // The arrow keys belong to the full image while it is open.
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(shownTitle()).toBe('Blue Hour');
    fireEvent.click(full.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(document.querySelector('.kn-full-image')).toBeNull());
  });
});

describe('the strips below', () => {
  it('when the modal opens, then Explore shows Featured, More from the artist leaves the piece out, and 8 other artists show without the owner', async () => {
    const featured = [makeContent({ title: 'Featured One', ownerUsername: 'ada_lovelace' })];
    const popular = [makeContent({ title: 'Popular One', ownerUsername: 'ada_lovelace' })];
    jest.mocked(getContentsByKind).mockImplementation(async ({ path: { kind }, query }) => {
      if (kind === 'new' && query?.ownerId) return { contents: world.pieces, nextCursor: null };
      return { contents: kind === 'popular' ? popular : featured, nextCursor: null };
    });
    const artists = Array.from({ length: 9 }, (_, index) => makeArtist(`artist_${index + 1}`));
    jest.mocked(getTrendingArtists).mockResolvedValue({ users: [janeCard(), ...artists], nextCursor: null });
    const { dialog, store } = await openFromProfile();

    const explore = await dialog.findByRole('list', { name: 'Explore' });
    expect(within(explore).getByText('Featured One')).toBeTruthy();
    expect(jest.mocked(getContentsByKind)).toHaveBeenCalledWith({ path: { kind: 'featured' }, query: { ownerId: undefined, limit: 12 } }, expect.anything());
    fireEvent.click(dialog.getByRole('tab', { name: 'Popular' }));
    expect(await within(await dialog.findByRole('list', { name: 'Explore' })).findByText('Popular One')).toBeTruthy();

    const more = await dialog.findByRole('list', { name: 'More from jane doe' });
    expect(within(more).queryByText('Blue Hour')).toBeNull();
    expect(within(more).getByText('Red Fox')).toBeTruthy();
    expect(jest.mocked(getContentsByKind)).toHaveBeenCalledWith(
      { path: { kind: 'new' }, query: { ownerId: world.pieces[0]!.ownerId, limit: 12 } },
      expect.anything(),
    );

    const others = await dialog.findByRole('list', { name: 'Other artists you may like' });
    const names = within(others)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(names).toEqual(artists.slice(0, 8).map((card) => `/${card.user.username}`));

    // A piece of a strip opens in place; its arrows walk the strip.
    fireEvent.click(within(more).getByRole('link', { name: 'Night Drive' }));
    expect(shownTitle()).toBe('Night Drive');
    expect(store.getState().contentDetail.siblings.map((piece) => piece.title)).toEqual(['Red Fox', 'Night Drive']);
    await waitFor(() => expect(path()).toBe('/jane_doe-night-drive'));
  });
});

describe('single-segment routes', () => {
  it('when a path is read, then -music-top-50 wins over the dash rule, a dash makes a share link, and fixed screens are neither', () => {
    expect(parsePath('/jane_doe-music-top-50')).toEqual({ kind: 'top50', name: 'jane_doe' });
    expect(parsePath('/jane_doe-music-top-50/64b000000000000000000009')).toEqual({ kind: 'top50', name: 'jane_doe', sub: '64b000000000000000000009' });
    expect(parsePath('/jane.doe-blue-hour-2')).toEqual({ kind: 'content', username: 'jane.doe', slug: 'blue-hour-2' });
    expect(parsePath('/jane_doe-caf%C3%A9')).toEqual({ kind: 'content', username: 'jane_doe', slug: 'café' });
    expect(parsePath('/jane_doe-blue-hour/photos')).toEqual({ kind: 'content', username: 'jane_doe', slug: 'blue-hour', sub: 'photos' });
    expect(parsePath('/jane_doe')).toEqual({ kind: 'profile', username: 'jane_doe' });
    expect(parsePath('/jane_doe/music')).toEqual({ kind: 'profile', username: 'jane_doe', sub: 'music' });
    expect(parsePath('/jane_doe/videos')).toBeNull();
    expect(parsePath('/jane_doe/music/more')).toBeNull();
    expect(parsePath('/jane_doe-')).toBeNull();
    for (const fixed of ['/pricing', '/activity-history', '/user-setting', '/wallet', '/terms-of-use.html']) expect(parsePath(fixed)).toBeNull();
  });

  it('when a share link is opened, then the piece shows over its owner profile; closing leaves the profile', async () => {
    const { store } = renderAt('/jane_doe-red-fox');
    await detailDialog('Red Fox');
    expect(jest.mocked(getContentByLink)).toHaveBeenCalledWith({ path: { username: 'jane_doe', slug: 'red-fox' } }, expect.anything());
    expect(screen.getByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();
    // The arrows walk the owner's pieces.
    expect(store.getState().contentDetail.siblings.map((piece) => piece.title)).toEqual(['Blue Hour', 'Red Fox', 'Night Drive']);
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    await waitFor(() => expect(path()).toBe('/jane_doe-night-drive'));
    expect(jest.mocked(getContentByLink)).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(path()).toBe('/jane_doe'));
    expect(store.getState().contentDetail.open).toBe(false);
  });

  it('when a share link from before a sale is opened, then the address becomes the piece’s link now, over its new owner’s profile', async () => {
    // The server finds a piece by a link it had under its former owner, and answers its link now.
    const fox = world.pieces.find((piece) => piece.title === 'Red Fox')!;
    jest.mocked(getContentByLink).mockImplementation(async ({ path: link }) => {
      if (link.username === 'cal_ray' && link.slug === 'red-fox') return { content: fox };
      if (link.username === 'jane_doe' && link.slug === 'red-fox') return { content: fox };
      throw new Error(`unexpected link ${link.username}-${link.slug}`);
    });
    renderAt('/cal_ray-red-fox');
    await waitFor(() => expect(path()).toBe('/jane_doe-red-fox'));
    await detailDialog('Red Fox');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();
  });

  it('when a share link names no piece, then the profile replaces it and the error shows', async () => {
    renderAt('/jane_doe-no-such-piece');
    await waitFor(() => expect(path()).toBe('/jane_doe'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();
  });

  it('when a segment has no dash, then it is the public profile, and a dash-less unknown member is a 404', async () => {
    renderAt('/jane_doe');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();
    expect(jest.mocked(getContentByLink)).not.toHaveBeenCalled();
    expect(jest.mocked(getProfileByUsername)).toHaveBeenCalledWith({ path: { username: 'jane_doe' } }, expect.anything());
    renderAt('/nobody_here');
    expect(await screen.findByRole('heading', { name: 'This page could not be found' })).toBeTruthy();
  });

  it('when the segment ends in -music-top-50, then the chart shows, not a share link', async () => {
    jest.mocked(getTop50Chart).mockResolvedValue({ artist: janeCard(), contents: [world.pieces[2]!] });
    renderAt('/jane_doe-music-top-50');
    expect(await screen.findByRole('heading', { name: 'Jane Doe’s Top 50' })).toBeTruthy();
    expect(jest.mocked(getTop50Chart)).toHaveBeenCalledWith({ path: { username: 'jane_doe' } }, expect.anything());
    expect(jest.mocked(getContentByLink)).not.toHaveBeenCalled();
  });

  it('when a piece is opened over another page, then reloading its address opens the content page', async () => {
    const { store, unmount } = renderAt('/');
    await screen.findByRole('heading', { level: 1, name: 'Get paid for every play and view.' });
    act(() => void store.dispatch(detailOpened({ content: world.pieces[1]!, siblings: world.pieces })));
    await detailDialog('Red Fox');
    await waitFor(() => expect(path()).toBe('/jane_doe-red-fox'));
    expect(screen.getByRole('heading', { level: 1, name: 'Get paid for every play and view.' })).toBeTruthy();
    // A reload: a fresh app at the same history entry (its state still names the page behind).
    unmount();
    const reloaded = renderAt(null);
    await detailDialog('Red Fox');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();
    expect(reloaded.store.getState().contentDetail.content?.id).toBe(world.pieces[1]!.id);
  });
});

describe('comments in the detail modal', () => {
  it('when a visitor clicks in the comment box, then signup opens from the comments, to come back to the box once signed in', async () => {
    const { dialog, store } = await openFromProfile();
    fireEvent.focus(await dialog.findByLabelText('Your comment'));
    await waitFor(() => expect(store.getState().ui.modal).toBe('signup'));
    expect(store.getState().ui.modalProps).toEqual({
      origin: 'comments',
      callback: { type: 'comments/commentBoxRequested', payload: { contentId: world.pieces[0]!.id } },
    });
  });

  it('when a member comments, then her comment shows at the top and the counts follow at once, the box empties, and the comments are read again', async () => {
    const bea = makeUser({ id: '64b0000000000000000000b2', username: 'bea_moon', email: 'bea@example.com', fullName: 'Bea Moon' });
    storeAccount('stored-token', bea);
    mockMemberCalls(bea);
    const photo = world.pieces[0]!;
    const comment = {
      id: `${photo.id}-3`,
      kind: 'comment' as const,
      contentId: photo.id,
      contentTitle: photo.title,
      ownerId: photo.ownerId,
      ownerUsername: photo.ownerUsername,
      commentorId: bea.id,
      commentorName: 'Bea Moon',
      commentorUsername: 'bea_moon',
      commentorPhoto: null,
      description: 'The light on the river.',
      when: new Date().toISOString(),
      atSeconds: null,
      sharedComment: null,
    };
    jest.mocked(addComment).mockImplementation(async () => {
      // From now on the server lists it.
      jest.mocked(getCommentsByContent).mockResolvedValue({ comments: [comment], nextCursor: null, total: 3 });
      return { message: 'Success', comment, commentsCount: 3 };
    });
    await sentEventNames();
    const { dialog } = await openFromProfile();
    const box = (await dialog.findByLabelText('Your comment')) as HTMLTextAreaElement;
    const reads = jest.mocked(getCommentsByContent).mock.calls.length;
    fireEvent.change(box, { target: { value: '  The light on the river.  ' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Comment' }));

    // Found in the list (the box held the same text as it was typed).
    expect(await dialog.findByText('The light on the river.', { selector: '.kn-comment__text' }, { timeout: 5000 })).toBeTruthy();
    expect(jest.mocked(addComment)).toHaveBeenCalledWith(
      { body: { comment: 'The light on the river.', userId: bea.id, ownerId: photo.ownerId, contentId: photo.id, atSeconds: null } },
      expect.objectContaining({ quiet: undefined }),
    );
    expect(dialog.getByRole('heading', { name: 'Comments (3)' })).toBeTruthy();
    expect(dialog.getByText('3 comments')).toBeTruthy();
    expect(box.value).toBe('');
    await waitFor(() => expect(jest.mocked(getCommentsByContent).mock.calls.length).toBe(reads + 1));
    const listed = () => [...document.querySelectorAll('.kn-comment__text')].map((node) => node.textContent);
    await waitFor(() => expect(listed()).toEqual(['The light on the river.']));
    // A product event names the piece, never the comment's words.
    expect(await sentEventNames()).toEqual([{ name: 'comment', contentId: photo.id }]);
  });
});
