/**
 * The player with songs shown to followers only, whose files come through signed links that end a few minutes
 * after they are given: a song goes on past its link's end (the player asks the detail call for a new link and
 * resumes where it was), a song started from a queue older than its link starts on a new one, and a link that
 * is refused again (the listener unfollowed) suspends the song as any other audio error.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { checkLoggedIn, getContentDetail } from '../../client/src/api/generated/operations';
import { playerAudio } from '../../client/src/features/player/testing';
import { authAnswer, makeUser, storeAccount } from './auth-fixtures';
import { cardLink, detailDialog, janeCard, makeContent, mockReads, notFoundError, renderAt, stubMedia, useJaneWorld } from './profile-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();
const bea = makeUser({ id: '64b0000000000000000000b2', username: 'bea_moon', fullName: 'Bea Moon', email: 'bea@example.com' });
const FOR_FOLLOWERS = { public: false, private: false, followers: true, hidePlayCount: false, hideViewCount: false };

/** A signed link to `file` as the server makes it, ending `inMs` from now. */
const signed = (file: string, inMs: number, sig: string) => `/files/${file}?exp=${Math.floor((Date.now() + inMs) / 1000)}&sig=${sig}`;

const stores: ReturnType<typeof renderAt>['store'][] = [];
afterEach(() => {
  stores.splice(0).forEach((store) => store.rootTask.cancel());
  playerAudio().removeAttribute('src');
});

/** Bea, a follower of Jane, signed in; Jane's song and a second one are for followers, with links given `inMs` ago. */
function followersWorld(linkEndsInMs: number) {
  storeAccount('stored-token', bea);
  jest.mocked(checkLoggedIn).mockResolvedValue({ ...authAnswer('fresh', bea), reacted_contents: [] });
  const song = world.pieces.find((piece) => piece.title === 'Night Drive')!;
  Object.assign(song, { setting: FOR_FOLLOWERS, filePath: signed('night.mp3', linkEndsInMs, 'first') });
  world.pieces.push(
    makeContent({
      title: 'Morning Tide',
      type: 'music',
      tags: [{ name: 'Music' }],
      subTag: 'Jazz',
      duration: 120,
      setting: FOR_FOLLOWERS,
      filePath: signed('tide.mp3', linkEndsInMs, 'first'),
    }),
  );
  mockReads(world);
}

/** The detail call answers the piece with links signed anew (`sig`), as the server does each time it is asked. */
function detailsSignedAnew(sig: string) {
  jest.mocked(getContentDetail).mockImplementation(async ({ path }) => {
    const content = world.pieces.find((piece) => piece.id === path.contentId);
    if (!content) throw notFoundError();
    const file = content.title === 'Night Drive' ? 'night.mp3' : 'tide.mp3';
    return { content: { ...content, filePath: signed(file, 10 * 60_000, sig) }, owner: janeCard().user, commentsCount: 2, knackStatus: 0 };
  });
}

async function playFromDetail(title: string) {
  const media = stubMedia();
  const app = renderAt('/jane_doe');
  stores.push(app.store);
  fireEvent.click(await cardLink(title));
  const detail = await detailDialog(title);
  fireEvent.click(detail.getByRole('button', { name: 'Play' }));
  await waitFor(() => expect(media.play).toHaveBeenCalled());
  return { ...app, media };
}

const bar = async () => within(await screen.findByRole('region', { name: 'Player' }, { timeout: 5000 }));

/** The audio element is `position` seconds into the song when the browser's next request for its bytes is refused. */
function refusedAt(position: number) {
  const audio = playerAudio();
  act(() => {
    Object.defineProperty(audio, 'currentTime', { configurable: true, writable: true, value: position });
    audio.dispatchEvent(new Event('timeupdate'));
    audio.dispatchEvent(new Event('error'));
  });
}

describe('songs for followers, through links that end after a few minutes', () => {
  it('when a song plays past its link’s end, then the player asks for a new link and goes on from where it was', async () => {
    followersWorld(5 * 60_000);
    detailsSignedAnew('first');
    const { store, media } = await playFromDetail('Night Drive');
    expect(playerAudio().getAttribute('src')).toContain('night.mp3?exp=');
    expect(playerAudio().getAttribute('src')).toContain('sig=first');

    // Minutes later the link has ended: the browser's next range request is refused.
    detailsSignedAnew('second');
    const asked = jest.mocked(getContentDetail).mock.calls.length;
    const plays = media.play.mock.calls.length;
    refusedAt(95);
    await waitFor(() => expect(playerAudio().getAttribute('src')).toContain('sig=second'));
    expect(jest.mocked(getContentDetail).mock.calls.length).toBe(asked + 1);
    expect(playerAudio().currentTime).toBe(95);
    await waitFor(() => expect(media.play.mock.calls.length).toBe(plays + 1));
    expect(store.getState().player.status).toBe('playing');
    expect(store.getState().player.queue.find((piece) => piece.title === 'Night Drive')!.filePath).toContain('sig=second');
    expect((await bar()).queryByRole('alert')).toBeNull();
  });

  it('when the new link is refused too, or no new one is given (the listener unfollowed), then the song is suspended', async () => {
    followersWorld(5 * 60_000);
    detailsSignedAnew('first');
    const { store } = await playFromDetail('Night Drive');
    detailsSignedAnew('second');
    refusedAt(40);
    await waitFor(() => expect(playerAudio().getAttribute('src')).toContain('sig=second'));
    // Refused again at once: not the link's end but the file itself, so the failure is reported.
    refusedAt(40);
    const player = await bar();
    expect(await player.findByRole('alert')).toHaveProperty('textContent', 'This song could not be played. Press play to try again.');
    expect(store.getState().player.status).toBe('suspended');
  });

  it('when the detail call no longer gives the song, then a refused link suspends it', async () => {
    followersWorld(5 * 60_000);
    detailsSignedAnew('first');
    const { store } = await playFromDetail('Night Drive');
    jest.mocked(getContentDetail).mockRejectedValue(notFoundError());
    refusedAt(12);
    expect(await (await bar()).findByRole('alert')).toHaveProperty('textContent', 'This song could not be played. Press play to try again.');
    expect(store.getState().player.status).toBe('suspended');
    expect(playerAudio().getAttribute('src')).toContain('sig=first');
  });

  it('when the next song of the queue has a link that has ended, then a new link is asked for before it starts', async () => {
    // The grid was loaded long ago: every link in it has ended.
    followersWorld(-60_000);
    detailsSignedAnew('fresh');
    const { store, media } = await playFromDetail('Night Drive');
    expect(playerAudio().getAttribute('src')).toContain('sig=fresh');
    expect(store.getState().player.queue.map((piece) => piece.title)).toEqual(['Night Drive', 'Morning Tide']);
    expect(store.getState().player.queue[1]!.filePath).toContain('sig=first');

    const plays = media.play.mock.calls.length;
    fireEvent.click((await bar()).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(media.play.mock.calls.length).toBe(plays + 1));
    expect(playerAudio().getAttribute('src')).toContain('tide.mp3');
    expect(playerAudio().getAttribute('src')).toContain('sig=fresh');
    expect(store.getState().player.queue[1]!.filePath).toContain('sig=fresh');
  });
});
