/**
 * The bottom player bar and knacks from the client (a new knack says 'Thank you for being apart of our
 * Community.'): a song chosen in the detail modal plays in the bar with its owner, views and comments;
 * previous/next pause, then move after 100 ms; the end repeats or goes next; an audio error suspends; a
 * visitor listens 30 seconds and is asked to sign up (and for the bar's controls at once); a member's play
 * past half sends `knack/add` with the play session (asked again on 409); 428 opens the verification modal;
 * an image with knack status 1 knacks once when the modal opens it.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { knackApi } from '../../client/src/api/generated/endpoints';
import { addKnack, checkLoggedIn, getContentDetail, getWalletSummary, requestKnackCode, startPlay } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { playerAudio } from '../../client/src/features/player/testing';
import { audioProgressed, playerOwnerName } from '../../client/src/features/player';
import { authAnswer, makeUser, storeAccount } from './auth-fixtures';
import { QUIET_CALL, QUIET_FLOW_CALL } from './call-options';
import { sentEventNames } from './event-fixtures';
import { cardLink, detailDialog, janeCard, makeContent, mockReads, renderAt, stubMedia, toastTexts, useJaneWorld } from './profile-fixtures';
import { walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();
const THANKS = 'Thank you for being apart of our Community.';
const bea = makeUser({ id: '64b0000000000000000000b2', username: 'bea_moon', fullName: 'Bea Moon', email: 'bea@example.com' });

const piece = (title: string) => world.pieces.find((content) => content.title === title)!;

/** Signs Bea in (a stored account the server confirms) with nothing knacked yet. */
function signInBea() {
  storeAccount('stored-token', bea);
  jest.mocked(checkLoggedIn).mockResolvedValue({ ...authAnswer('fresh', bea), reacted_contents: [] });
}

/** Adds a second song, so that the queue has a next one. */
function addSecondSong() {
  world.pieces.push(
    makeContent({ title: 'Morning Tide', type: 'music', tags: [{ name: 'Music' }], subTag: 'Jazz', duration: 120, waveformPath: '/files/tide-peaks.json' }),
  );
  mockReads(world);
}

// One audio element serves every store of this file: each test's sagas stop with it, so that only the
// running test's store hears the element.
const stores: ReturnType<typeof renderAt>['store'][] = [];
afterEach(() => {
  stores.splice(0).forEach((store) => store.rootTask.cancel());
  playerAudio().removeAttribute('src');
});

/** The song's detail opened from Jane's profile and its Play pressed. */
async function playFromDetail(title = 'Night Drive', device: 'desktop' | 'phone' = 'desktop') {
  const media = stubMedia();
  const app = renderAt('/jane_doe', device);
  stores.push(app.store);
  fireEvent.click(await cardLink(title));
  const detail = await detailDialog(title);
  fireEvent.click(detail.getByRole('button', { name: 'Play' }));
  await waitFor(() => expect(media.play).toHaveBeenCalled());
  return { ...app, detail, media };
}

const bar = async () => within(await screen.findByRole('region', { name: 'Player' }, { timeout: 5000 }));

/** The audio element reports `position` seconds of `duration`. */
function audioAt(position: number, duration = 187) {
  const audio = playerAudio();
  act(() => {
    Object.defineProperty(audio, 'currentTime', { configurable: true, writable: true, value: position });
    Object.defineProperty(audio, 'duration', { configurable: true, writable: true, value: duration });
    audio.dispatchEvent(new Event('timeupdate'));
  });
}

/** Plays from `from` to `to` seconds in steps of one second, as the browser reports it. */
function listen(from: number, to: number, duration = 187) {
  for (let second = from; second <= to; second += 1) audioAt(second, duration);
}

const audioEvent = (name: string) => act(() => void playerAudio().dispatchEvent(new Event(name)));

describe('the bottom player bar', () => {
  it('when a member plays a song in the detail, then the bar shows it: title, owner (underscores as spaces), views and comments', async () => {
    signInBea();
    await sentEventNames();
    const { media } = await playFromDetail();
    const player = await bar();
    expect(player.getByRole('button', { name: 'Night Drive' })).toBeTruthy();
    expect(player.getByRole('link', { name: 'jane doe' }).getAttribute('href')).toBe('/jane_doe');
    expect(await player.findByLabelText('2 comments')).toBeTruthy();
    expect(player.getByLabelText(`${piece('Night Drive').reactedCount} views`)).toBeTruthy();
    expect(playerAudio().getAttribute('src')).toContain(piece('Night Drive').filePath);
    expect(media.play).toHaveBeenCalledTimes(1);
    expect(player.getByRole('button', { name: 'Pause' })).toBeTruthy();

    fireEvent.click(player.getByRole('button', { name: 'Pause' }));
    expect(media.pause).toHaveBeenCalled();
    expect(await player.findByRole('button', { name: 'Play' })).toBeTruthy();
    // The song that started is one play (a product event); playing on after the pause is not another.
    fireEvent.click(player.getByRole('button', { name: 'Play' }));
    expect(await player.findByRole('button', { name: 'Pause' })).toBeTruthy();
    expect(await sentEventNames()).toEqual([{ name: 'play', contentId: piece('Night Drive').id }]);
  });

  it('when Next and Previous are pressed, then the song pauses and the next one plays 100 ms later; at the end it goes next, or repeats', async () => {
    signInBea();
    addSecondSong();
    const { store, media } = await playFromDetail();
    const player = await bar();
    // The queue is the songs of the grid the piece was opened from (the photo and the art piece are left out).
    expect(store.getState().player.queue.map((content) => content.title)).toEqual(['Night Drive', 'Morning Tide']);
    expect(player.getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', true);

    const paused = media.pause.mock.calls.length;
    const before = Date.now();
    fireEvent.click(player.getByRole('button', { name: 'Next' }));
    expect(media.pause.mock.calls.length).toBe(paused + 1);
    expect(store.getState().player.index).toBe(0);
    await waitFor(() => expect(player.getByRole('button', { name: 'Morning Tide' })).toBeTruthy());
    expect(Date.now() - before).toBeGreaterThanOrEqual(95);
    expect(playerAudio().getAttribute('src')).toContain(piece('Morning Tide').filePath);
    expect(store.getState().player.status).toBe('playing');

    fireEvent.click(player.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(player.getByRole('button', { name: 'Night Drive' })).toBeTruthy());

    // The end without repeat: pause at the start, then the next song.
    audioAt(187);
    audioEvent('ended');
    await waitFor(() => expect(player.getByRole('button', { name: 'Morning Tide' })).toBeTruthy());

    // With repeat: the same song again from the start.
    fireEvent.click(player.getByRole('button', { name: 'Repeat' }));
    expect(player.getByRole('button', { name: 'Repeat' }).getAttribute('aria-pressed')).toBe('true');
    const plays = media.play.mock.calls.length;
    audioAt(120, 120);
    audioEvent('ended');
    await waitFor(() => expect(media.play.mock.calls.length).toBe(plays + 1));
    expect(playerAudio().currentTime).toBe(0);
    expect(player.getByRole('button', { name: 'Morning Tide' })).toBeTruthy();
  });

  it('when the audio fails, then the bar says it is suspended, and play loads the song again', async () => {
    signInBea();
    const { store, media } = await playFromDetail();
    const player = await bar();
    audioEvent('error');
    expect(await player.findByRole('alert')).toHaveProperty('textContent', 'This song could not be played. Press play to try again.');
    expect(store.getState().player.status).toBe('suspended');
    const plays = media.play.mock.calls.length;
    fireEvent.click(player.getByRole('button', { name: 'Play' }));
    await waitFor(() => expect(media.play.mock.calls.length).toBe(plays + 1));
    expect(store.getState().player.status).toBe('playing');
  });

  it('when mute and volume are used, then the audio element follows; the close button stops the song and the bar goes', async () => {
    signInBea();
    const { store } = await playFromDetail();
    const player = await bar();
    fireEvent.click(player.getByRole('button', { name: 'Mute' }));
    expect(playerAudio().muted).toBe(true);
    fireEvent.change(player.getByRole('slider', { name: 'Volume' }), { target: { value: '0.3' } });
    expect(playerAudio().volume).toBeCloseTo(0.3);
    expect(playerAudio().muted).toBe(false);
    fireEvent.click(player.getByRole('button', { name: 'Close the player' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Player' })).toBeNull());
    expect(playerAudio().getAttribute('src')).toBeNull();
    expect(store.getState().player.queue).toEqual([]);
  });

  it('when the progress and volume sliders are used from the keyboard, then they say their values and the arrows move the song by 5 s', async () => {
    signInBea();
    const { store, detail } = await playFromDetail();
    act(() => void store.dispatch(audioProgressed({ position: 63, duration: 200 })));
    const player = await bar();
    const progress = player.getByRole('slider', { name: 'Progress' });
    expect(progress.getAttribute('aria-valuetext')).toBe('1:03 of 3:20');
    expect(player.getByRole('slider', { name: 'Volume' }).getAttribute('aria-valuetext')).toBe('80%');
    fireEvent.keyDown(progress, { key: 'ArrowRight' });
    expect(playerAudio().currentTime).toBe(68);
    fireEvent.keyDown(progress, { key: 'PageDown' });
    expect(playerAudio().currentTime).toBe(33);
    fireEvent.keyDown(progress, { key: 'End' });
    expect(playerAudio().currentTime).toBe(200);
    // The detail's waveform is the same kind of slider, with the same keys.
    const wave = detail.getByRole('slider', { name: 'Position in the song' });
    expect(wave.getAttribute('aria-valuetext')).toBe('1:03 of 3:20');
    fireEvent.keyDown(wave, { key: 'Home' });
    expect(playerAudio().currentTime).toBe(0);
    fireEvent.keyDown(wave, { key: 'Tab' });
    expect(playerAudio().currentTime).toBe(0);
  });

  it('names the owner with underscores as spaces, a trailing dot-suffix longer than 14 characters dropped', () => {
    expect(playerOwnerName('ana_lee.0x5f3c9a7b21e4d8aa')).toBe('ana lee');
    expect(playerOwnerName('ana_lee.12345678901234')).toBe('ana lee.12345678901234');
    expect(playerOwnerName('john_smith.jr')).toBe('john smith.jr');
    expect(playerOwnerName('Mia Stone')).toBe('Mia Stone');
  });
});

describe('a visitor', () => {
  it('when a visitor uses the bar’s controls, then the song pauses and signup opens (origin onClickKnack)', async () => {
    addSecondSong();
    const { store, media } = await playFromDetail();
    const player = await bar();
    for (const control of ['Next', 'Mute', 'Repeat']) {
      act(() => void store.dispatch({ type: 'ui/modalClosed' }));
      const pauses = media.pause.mock.calls.length;
      fireEvent.click(player.getByRole('button', { name: control }));
      await waitFor(() => expect(store.getState().ui.modal).toBe('signup'));
      expect(store.getState().ui.modalProps.origin).toBe('onClickKnack');
      expect(media.pause.mock.calls.length).toBeGreaterThan(pauses);
    }
    expect(playerAudio().muted).toBe(false);
    expect(store.getState().player.index).toBe(0);
  });

  it('when a visitor has listened 30 seconds, then the song pauses and signup opens; each later attempt asks again', async () => {
    const { store, media, detail } = await playFromDetail();
    listen(0, 29);
    expect(store.getState().ui.modal).toBeNull();
    const pauses = media.pause.mock.calls.length;
    listen(30, 31);
    await waitFor(() => expect(store.getState().ui.modal).toBe('signup'));
    expect(store.getState().ui.modalProps.origin).toBe('onClickKnack');
    expect(media.pause.mock.calls.length).toBeGreaterThan(pauses);
    expect(store.getState().player.status).toBe('paused');

    act(() => void store.dispatch({ type: 'ui/modalClosed' }));
    const plays = media.play.mock.calls.length;
    fireEvent.click(detail.getByRole('button', { name: 'Play' }));
    await waitFor(() => expect(store.getState().ui.modal).toBe('signup'));
    expect(media.play.mock.calls.length).toBe(plays);
    expect(addKnack).not.toHaveBeenCalled();
    expect(startPlay).not.toHaveBeenCalled();
  });
});

describe('knacks', () => {
  const song = () => piece('Night Drive');

  it('when a member has heard more than half of a song, then knack/add is sent once with the play session and thanks them', async () => {
    signInBea();
    jest.mocked(startPlay).mockResolvedValue({ playId: 'play-1', minSeconds: 93.5 });
    jest.mocked(addKnack).mockResolvedValue({ message: THANKS, knackStatus: 2, reactedCount: 8, earned: 0, earnedMicros: 0 });
    await sentEventNames();
    const { store } = await playFromDetail();
    await waitFor(() => expect(startPlay).toHaveBeenCalledWith({ body: { contentId: song().id } }, QUIET_FLOW_CALL));
    listen(0, 93);
    expect(addKnack).not.toHaveBeenCalled();
    listen(94, 95);
    await waitFor(() => expect(addKnack).toHaveBeenCalledTimes(1));
    expect(addKnack).toHaveBeenCalledWith({ body: { contentId: song().id, userId: bea.id, playId: 'play-1' } }, QUIET_FLOW_CALL);
    await waitFor(() => expect(toastTexts()).toContain(THANKS));
    expect(store.getState().auth.reactedContents).toContain(song().id);
    expect((await bar()).getByLabelText('8 views')).toBeTruthy();
    expect(await sentEventNames()).toEqual([
      { name: 'play', contentId: song().id },
      { name: 'knack', contentId: song().id },
    ]);

    // Heard again (repeat): it counted already.
    audioEvent('ended');
    audioEvent('play');
    listen(0, 120);
    expect(startPlay).toHaveBeenCalledTimes(1);
    expect(addKnack).toHaveBeenCalledTimes(1);
  });

  it('when a knack is registered, then the money read on screen (the member’s wallet) loads again', async () => {
    signInBea();
    jest.mocked(startPlay).mockResolvedValue({ playId: 'play-4', minSeconds: 0.1 });
    jest.mocked(addKnack).mockResolvedValue({ message: THANKS, knackStatus: 2, reactedCount: 8, earned: 0, earnedMicros: 0 });
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 2 }));
    const { store } = await playFromDetail();
    const wallet = store.dispatch(knackApi.endpoints.getWalletSummary.initiate({ path: { id: bea.id } }));
    await wallet;
    expect(getWalletSummary).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(startPlay).toHaveBeenCalled());
    audioAt(150);
    await waitFor(() => expect(toastTexts()).toContain(THANKS));
    await waitFor(() => expect(getWalletSummary).toHaveBeenCalledTimes(2));
    wallet.unsubscribe();
  });

  it('when the server finds the play too short (409: seeked ahead), then the knack is asked again once the time has passed', async () => {
    signInBea();
    jest.mocked(startPlay).mockResolvedValue({ playId: 'play-2', minSeconds: 0.3 });
    jest
      .mocked(addKnack)
      .mockRejectedValueOnce(new ApiError('Keep listening: a play counts once more than half of the song has played.', 409, 'conflict'))
      .mockResolvedValueOnce({ message: THANKS, knackStatus: 2, reactedCount: 3, earned: 0.045, earnedMicros: 45_000 });
    await playFromDetail();
    await waitFor(() => expect(startPlay).toHaveBeenCalled());
    audioAt(150);
    await waitFor(() => expect(addKnack).toHaveBeenCalledTimes(2), { timeout: 3000 });
    await waitFor(() => expect(toastTexts()).toContain(THANKS));
    expect(toastTexts().some((text) => text.startsWith('Keep listening'))).toBe(false);
  });

  it('when the member owns the song, then no play session and no knack', async () => {
    storeAccount('stored-token', makeUser());
    jest.mocked(checkLoggedIn).mockResolvedValue({ ...authAnswer('fresh', makeUser()), reacted_contents: [] });
    const { store } = await playFromDetail();
    listen(0, 2);
    audioAt(150);
    // Past half of the song as the player saw it: a member who may knack would have a session and a knack by now.
    await waitFor(() => expect(store.getState().player.position).toBe(150));
    expect(startPlay).not.toHaveBeenCalled();
    expect(addKnack).not.toHaveBeenCalled();
  });

  it('when the member has made 9 recent knacks and the next needs the code (428), then the verification modal mails it and sends the knack again with it', async () => {
    signInBea();
    jest.mocked(startPlay).mockResolvedValue({ playId: 'play-3', minSeconds: 0.1 });
    jest.mocked(requestKnackCode).mockResolvedValue({ message: 'We emailed you a 4-digit code. Enter it to go on knacking.' });
    jest
      .mocked(addKnack)
      .mockRejectedValueOnce(new ApiError('You have knacked a lot today. Enter the 4-digit code we emailed you to go on.', 428, 'verification_required'))
      .mockRejectedValueOnce(new ApiError('Invalid verification code.', 400, 'bad_request'))
      .mockResolvedValueOnce({ message: THANKS, knackStatus: 2, reactedCount: 11, earned: 0, earnedMicros: 0 });
    const { store } = await playFromDetail();
    await waitFor(() => expect(startPlay).toHaveBeenCalled());
    audioAt(150);
    const modal = within(
      await waitFor(
        () => {
          const node = document.querySelector<HTMLElement>('.kn-verification-modal [role="dialog"]');
          if (!node) throw new Error('no verification dialog');
          return node;
        },
        { timeout: 5000 },
      ),
    );
    expect(await modal.findByText('We emailed you a 4-digit code. Enter it to go on knacking.')).toBeTruthy();
    expect(requestKnackCode).toHaveBeenCalledWith({ body: { userId: bea.id } }, QUIET_CALL);

    const field = modal.getByLabelText('Verification code');
    fireEvent.change(field, { target: { value: '12' } });
    fireEvent.click(modal.getByRole('button', { name: 'Verify' }));
    expect((await modal.findByRole('alert')).textContent).toBe('Invalid verification code.');
    expect(addKnack).toHaveBeenCalledTimes(1);

    fireEvent.change(field, { target: { value: '1234' } });
    fireEvent.click(modal.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(addKnack).toHaveBeenCalledTimes(2));
    expect((await modal.findByRole('alert')).textContent).toBe('Invalid verification code.');

    fireEvent.change(field, { target: { value: '4321' } });
    fireEvent.click(modal.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(toastTexts()).toContain(THANKS));
    expect(addKnack).toHaveBeenLastCalledWith({ body: { contentId: song().id, userId: bea.id, code: '4321', playId: 'play-3' } }, QUIET_CALL);
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    expect(store.getState().auth.reactedContents).toContain(song().id);
  });

  it('when a member opens an image with knack status 1, then it knacks once; status 2 (already) does not', async () => {
    signInBea();
    stubMedia();
    const art = piece('Red Fox');
    const photo = piece('Blue Hour');
    jest.mocked(getContentDetail).mockImplementation(async ({ path }) => {
      const content = world.pieces.find((item) => item.id === path.contentId)!;
      return { content, owner: janeCard().user, commentsCount: 0, knackStatus: content.id === art.id ? 1 : 2 };
    });
    jest.mocked(addKnack).mockResolvedValue({ message: THANKS, knackStatus: 2, reactedCount: 5, earned: 0.99, earnedMicros: 990_000 });
    const { store } = renderAt('/jane_doe');
    stores.push(store);
    fireEvent.click(await cardLink('Red Fox'));
    const detail = await detailDialog('Red Fox');
    await waitFor(() => expect(addKnack).toHaveBeenCalledWith({ body: { contentId: art.id, userId: bea.id } }, QUIET_FLOW_CALL));
    await waitFor(() => expect(toastTexts()).toContain(THANKS));
    expect(store.getState().auth.reactedContents).toContain(art.id);

    // The next piece (already knacked) and back: no new knack.
    fireEvent.click(detail.getByRole('button', { name: 'Previous piece' }));
    await waitFor(() => expect(document.querySelector('.kn-detail__title')?.textContent).toBe(photo.title));
    fireEvent.click(detail.getByRole('button', { name: 'Next piece' }));
    // The detail shows it again (its view reported as it rendered, inside act): no second knack.
    await waitFor(() => expect(document.querySelector('.kn-detail__title')?.textContent).toBe(art.title));
    expect(addKnack).toHaveBeenCalledTimes(1);
  });
});
