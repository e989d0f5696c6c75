/**
 * Profiles and the Top 50 chart: the public profile's header, counts and type filter,
 * paging of the uploads; the own profile (members only) with private pieces badged, the collection, Upload,
 * and the owner's Delete behind the warning that the listing fee is not refunded (3 days to decide), which
 * removes the card; the Top 50 chart's numbered list and its upload button.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  deleteContent,
  getContentById,
  getContentsByUsername,
  getListingQuote,
  getProfileByUsername,
  getSupportedContents,
  getTop50Chart,
  saveContent,
  uploadContentPhoto,
} from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { makeUser, storeAccount } from './auth-fixtures';
import { chooseFile, chooseMainTag, findDialog, imageAnswer, mockMemberCalls, pick, pngFile, stubObjectUrls, type } from './upload-fixtures';
import { cardLink, JANE_ID, janeCard, makeContent, mockReads, path, renderAt, shownTitle, toastTexts, useJaneWorld } from './profile-fixtures';
import { waitForModalHidden } from './render';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();

/** The SPA at `at`, signed in as Jane (a stored account, reloaded). */
async function renderAsJane(at: string, device: 'desktop' | 'phone' = 'desktop') {
  const jane = makeUser({ id: JANE_ID, username: 'jane_doe', bio: 'Songs and photos from Austin.' });
  storeAccount('stored-token', jane);
  mockMemberCalls(jane);
  mockReads(world);
  const app = renderAt(at, device);
  await waitFor(() => expect(app.store.getState().auth.session).toBe('active'));
  return app;
}

const grid = (name: string) => screen.findByRole('list', { name }, { timeout: 5000 });
const titlesIn = (list: HTMLElement) =>
  within(list)
    .getAllByRole('heading', { level: 3 })
    .map((heading) => heading.textContent);

describe('public profile', () => {
  it('when opened, then the header shows the name, @username, bio and counts, a neutral gradient without a header image, and the uploads', async () => {
    renderAt('/jane_doe');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();
    expect(screen.getByText('@jane_doe')).toBeTruthy();
    expect(screen.getByText('Songs and photos from Austin.')).toBeTruthy();
    const counts = screen.getByRole('list', { name: 'Counts' });
    expect(
      within(counts)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['3 pieces', '1.2k followers', '7 following']);
    expect(document.querySelector('.kn-profile-head__banner img')).toBeNull();
    expect(titlesIn(await grid('Uploads by Jane Doe'))).toEqual(['Blue Hour', 'Red Fox', 'Night Drive']);
    // A visitor's view has no owner menu and no Upload.
    expect(screen.queryByRole('button', { name: /options for/i })).toBeNull();
  });

  it('when a type is chosen, then the address is /{username}/{type} and only that type is asked for', async () => {
    renderAt('/jane_doe');
    await grid('Uploads by Jane Doe');
    fireEvent.click(screen.getByRole('link', { name: 'Music' }));
    await waitFor(() => expect(path()).toBe('/jane_doe/music'));
    await waitFor(() => expect(titlesIn(screen.getByRole('list', { name: 'Uploads by Jane Doe' }))).toEqual(['Night Drive']));
    expect(jest.mocked(getContentsByUsername)).toHaveBeenLastCalledWith(
      { path: { username: 'jane_doe' }, query: { type: 'music', cursor: undefined, limit: 24 } },
      expect.anything(),
    );
    expect(screen.getByRole('link', { name: 'Music' }).getAttribute('aria-current')).toBe('page');
  });

  it('when there is a next page, then Load more appends it with the cursor', async () => {
    const later = makeContent({ title: 'Older Piece' });
    jest
      .mocked(getContentsByUsername)
      .mockImplementation(async ({ query }) =>
        query?.cursor === 'page-2' ? { contents: [later], nextCursor: null } : { contents: world.pieces, nextCursor: 'page-2' },
      );
    renderAt('/jane_doe');
    await grid('Uploads by Jane Doe');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() =>
      expect(titlesIn(screen.getByRole('list', { name: 'Uploads by Jane Doe' }))).toEqual(['Blue Hour', 'Red Fox', 'Night Drive', 'Older Piece']),
    );
    expect(jest.mocked(getContentsByUsername)).toHaveBeenLastCalledWith(
      { path: { username: 'jane_doe' }, query: { type: undefined, cursor: 'page-2', limit: 24 } },
      expect.anything(),
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('when the member has a header image, then it shows; on a phone the page fits 390 px', async () => {
    mockReads({ cards: [janeCard({ headerImage: '/files/header.webp', image: '/files/me.webp' })], pieces: world.pieces });
    renderAt('/jane_doe', 'phone');
    await screen.findByRole('heading', { level: 1, name: 'Jane Doe' });
    expect(document.querySelector('.kn-profile-head__banner img')?.getAttribute('src')).toBe('/files/header.webp');
    expect(document.querySelector('.kn-profile-head__avatar img')?.getAttribute('src')).toBe('/files/me.webp');
    expect(document.querySelector('.kn-shell--phone')).toBeTruthy();
  });
});

describe('own profile', () => {
  it('when a visitor without an account opens /profile/default, then the guard sends them home', async () => {
    renderAt('/profile/default');
    await screen.findByRole('heading', { level: 1, name: 'Get paid for every play and view.' });
    expect(path()).toBe('/');
  });

  it('when Jane opens it, then her private pieces are badged, Upload opens the upload modal, and an unknown kind goes to default', async () => {
    world.pieces[1] = { ...world.pieces[1]!, setting: { ...world.pieces[1]!.setting, public: false, private: true } };
    const { store } = await renderAsJane('/profile/other');
    await waitFor(() => expect(path()).toBe('/profile/default'));
    const uploads = await grid('Your uploads');
    const privateCard = within(uploads).getByRole('heading', { name: 'Red Fox' }).closest('article')!;
    expect(within(privateCard).getByText('Private')).toBeTruthy();
    expect(within(uploads).getAllByText('Private')).toHaveLength(1);
    fireEvent.click(within(screen.getByRole('region', { name: 'Jane Doe' })).getByRole('button', { name: 'Upload' }));
    expect(store.getState().ui.modal).toBe('upload');
  });

  it('when Delete is chosen, then the warning says the listing fee is not refunded and 3 days to decide; Remove removes the card', async () => {
    // The server removes the piece: its lists answer without it from then on.
    jest.mocked(deleteContent).mockImplementation(async ({ body }) => {
      world.pieces.splice(
        world.pieces.findIndex((piece) => piece.id === body.contentId),
        1,
      );
      return { message: 'The content is removed successfully.' };
    });
    await renderAsJane('/profile/default');
    await grid('Your uploads');
    const profileCalls = jest.mocked(getProfileByUsername).mock.calls.length;
    const redFox = world.pieces[1]!;

    fireEvent.click(screen.getByRole('button', { name: 'Options for Red Fox' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /delete/i }));
    const dialog = within(await waitFor(() => document.querySelector<HTMLElement>('.kn-delete-modal [role="dialog"]')!));
    expect(dialog.getByText('Remove this piece?')).toBeTruthy();
    expect(dialog.getByText('The listing fee is not refunded.')).toBeTruthy();
    expect(dialog.getByText('You have 3 days to decide.')).toBeTruthy();
    expect(dialog.getByText(/“Red Fox” will be taken off Knack/)).toBeTruthy();

    fireEvent.click(dialog.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(toastTexts()).toContain('The content is removed successfully.'));
    // Not quiet: a failure is toasted by the HTTP client.
    expect(jest.mocked(deleteContent)).toHaveBeenCalledWith({ body: { contentId: redFox.id } }, expect.objectContaining({ quiet: undefined }));
    await waitFor(() => expect(titlesIn(screen.getByRole('list', { name: 'Your uploads' }))).toEqual(['Blue Hour', 'Night Drive']));
    // The counts are read again.
    await waitFor(() => expect(jest.mocked(getProfileByUsername).mock.calls.length).toBeGreaterThan(profileCalls));
  });

  it('when Jane saves a new piece from the upload modal, then her uploads load again with it and her count of pieces is read again', async () => {
    stubObjectUrls();
    jest.mocked(uploadContentPhoto).mockResolvedValue(imageAnswer());
    // The payment modal that opens after a save reads the piece and its listing fee (tested in wallet-payments).
    jest.mocked(getContentById).mockReturnValue(new Promise(() => undefined));
    jest.mocked(getListingQuote).mockReturnValue(new Promise(() => undefined));
    const saved = makeContent({ title: 'Lisbon at dawn', type: 'photos', tags: [{ name: 'Photos' }], subTag: 'Travel' });
    // The server keeps the piece: the uploads answer with it from then on.
    jest.mocked(saveContent).mockImplementation(async () => {
      world.pieces.unshift(saved);
      return { content: saved, message: 'Success' };
    });
    const { store } = await renderAsJane('/profile/default');
    expect(titlesIn(await grid('Your uploads'))).toEqual(['Blue Hour', 'Red Fox', 'Night Drive']);
    const profileCalls = jest.mocked(getProfileByUsername).mock.calls.length;

    fireEvent.click(within(screen.getByRole('region', { name: 'Jane Doe' })).getByRole('button', { name: 'Upload' }));
    const dialog = await findDialog('Upload content');
    type('Title', 'Lisbon at dawn');
    type('Description', 'Tram 28');
    await chooseMainTag('Photos');
    await pick('Category', 'Travel');
    chooseFile('Photo', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    fireEvent.click(dialog.getByRole('button', { name: 'Upload' }));

    await waitFor(() =>
      expect(titlesIn(screen.getByRole('list', { name: 'Your uploads' }))).toEqual(['Lisbon at dawn', 'Blue Hour', 'Red Fox', 'Night Drive']),
    );
    await waitFor(() => expect(jest.mocked(getProfileByUsername).mock.calls.length).toBeGreaterThan(profileCalls));
  });

  it('when the removal fails, then the warning stays open and the card stays; Keep it closes the warning', async () => {
    jest.mocked(deleteContent).mockRejectedValue(new ApiError('You can only remove your own pieces.', 403, 'forbidden'));
    await renderAsJane('/profile/default');
    await grid('Your uploads');
    fireEvent.click(screen.getByRole('button', { name: 'Options for Blue Hour' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /delete/i }));
    const dialog = within(await waitFor(() => document.querySelector<HTMLElement>('.kn-delete-modal [role="dialog"]')!));
    fireEvent.click(dialog.getByRole('button', { name: 'Remove' }));
    // (The HTTP client toasts the server's message; the operations are mocked here, see http-auth.test.tsx.)
    await waitFor(() => expect(jest.mocked(deleteContent)).toHaveBeenCalled());
    // Once the refusal has come back, the warning's buttons work again (Keep it is disabled while Remove is sending).
    await waitFor(() => expect(dialog.getByRole('button', { name: 'Keep it' }).hasAttribute('disabled')).toBe(false));
    expect(dialog.getByText('The listing fee is not refunded.')).toBeTruthy();
    expect(titlesIn(screen.getByRole('list', { name: 'Your uploads' }))).toEqual(['Blue Hour', 'Red Fox', 'Night Drive']);
    fireEvent.click(dialog.getByRole('button', { name: 'Keep it' }));
    await waitForModalHidden('.kn-delete-modal');
  });

  it('when Collection is chosen, then the pieces Jane supports are listed from her collection', async () => {
    const supported = makeContent({ title: 'Supported Song', ownerUsername: 'ada_lovelace' });
    jest.mocked(getSupportedContents).mockResolvedValue({ contents: [supported], nextCursor: null });
    await renderAsJane('/profile/default');
    await grid('Your uploads');
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Your pieces' })).getByRole('link', { name: 'Collection' }));
    await waitFor(() => expect(path()).toBe('/profile/supported'));
    expect(titlesIn(await grid('Your collection'))).toEqual(['Supported Song']);
    expect(jest.mocked(getSupportedContents)).toHaveBeenCalledWith({ path: { id: JANE_ID }, query: { cursor: undefined, limit: 24 } }, expect.anything());
    expect(screen.queryByRole('button', { name: /options for/i })).toBeNull();
  });

  it('when one of her pieces is opened, then the detail steps through her uploads', async () => {
    await renderAsJane('/profile/default');
    fireEvent.click(await cardLink('Blue Hour'));
    await waitFor(() => expect(shownTitle()).toBe('Blue Hour'));
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(shownTitle()).toBe('Red Fox');
    await waitFor(() => expect(path()).toBe('/jane_doe-red-fox'));
  });
});

describe('Top 50 chart', () => {
  const songs = () => [
    makeContent({ title: 'Top Song', reactedCount: 1520, duration: 200 }),
    makeContent({ title: 'Second Song', reactedCount: 800 }),
    makeContent({ title: 'Third Song', reactedCount: 12, ownerId: '64b0000000000000000000dd', ownerName: 'Night Driver' }),
  ];

  it('when opened, then the artist header and the numbered songs with their reactions show; a song opens in the detail', async () => {
    const chart = songs();
    jest.mocked(getTop50Chart).mockResolvedValue({ artist: janeCard(), contents: chart });
    const { store } = renderAt('/jane_doe-music-top-50/64b000000000000000000009');
    const list = await screen.findByRole('list', { name: 'Top 50 songs' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => within(row).getByLabelText(/^Rank/).textContent)).toEqual(['1', '2', '3']);
    expect(rows.map((row) => within(row).getByRole('button').textContent)).toEqual(['Top Song', 'Second Song', 'Third Song']);
    expect(rows[0]!.textContent).toContain('1.5k reactions');
    expect(rows[0]!.textContent).toContain('Rock · 3:20');
    expect(rows[0]!.textContent).not.toContain(' by ');
    // A song another person entered in the chart says whose it is.
    expect(rows[2]!.textContent).toContain('Rock · by Night Driver');
    expect(screen.getByRole('heading', { level: 1, name: 'Jane Doe' })).toBeTruthy();

    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Second Song' }));
    await waitFor(() => expect(shownTitle()).toBe('Second Song'));
    expect(store.getState().contentDetail.siblings.map((piece) => piece.title)).toEqual(['Top Song', 'Second Song', 'Third Song']);
  });

  it('when the artist opens their chart, then Upload to my page opens the artist modal and Upload to Top 50 the Top 50 modal', async () => {
    jest.mocked(getTop50Chart).mockResolvedValue({ artist: janeCard(), contents: [] });
    const { store } = await renderAsJane('/jane_doe-music-top-50');
    expect(await screen.findByText('No songs in this chart yet. Upload one to be the first.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upload to my page' }));
    expect(store.getState().ui).toMatchObject({ modal: 'upload-artist', modalProps: { userId: JANE_ID, artistName: 'Jane Doe' } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload to Top 50' }));
    expect(store.getState().ui).toMatchObject({ modal: 'upload-top50', modalProps: { userId: JANE_ID, artistName: 'Jane Doe' } });
  });

  it('when a visitor or another member opens the chart, then there is no Upload to my page; a visitor’s Upload to Top 50 opens the form', async () => {
    jest.mocked(getTop50Chart).mockResolvedValue({ artist: janeCard(), contents: [] });
    const { store } = renderAt('/jane_doe-music-top-50');
    fireEvent.click(await screen.findByRole('button', { name: 'Upload to Top 50' }));
    expect(screen.queryByRole('button', { name: 'Upload to my page' })).toBeNull();
    await waitFor(() => expect(store.getState().ui.modal).toBe('upload-top50'));
    expect(await findDialog('Upload music (Top 50)')).toBeTruthy();
  });

  it('when the mailed registration link is opened, then the {name} register modal opens for that account', async () => {
    jest.mocked(getTop50Chart).mockResolvedValue({ artist: janeCard(), contents: [] });
    const { store } = renderAt('/jane_doe-music-top-50/64b0000000000000000000cc?token=mailed-token');
    const dialog = await findDialog('jane_doe register');
    expect(dialog.getByRole('heading', { name: 'Finish your registration' })).toBeTruthy();
    expect(store.getState().ui.modalProps).toMatchObject({ userId: '64b0000000000000000000cc', token: 'mailed-token', artistName: 'jane_doe' });
  });

  it('when the artist does not exist, then the page says it could not be found', async () => {
    jest.mocked(getTop50Chart).mockRejectedValue(new ApiError('Not found', 404, 'not_found'));
    renderAt('/nobody_here-music-top-50');
    expect(await screen.findByRole('heading', { name: 'This page could not be found' })).toBeTruthy();
  });
});
