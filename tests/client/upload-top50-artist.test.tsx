/**
 * The Top 50 and artist-page upload modals, sharing the content form: Music only,
 * their completion weights (20 each), the Top 50 email rule and its two steps (a failed save goes back to
 * step 1), the artist page's single step and the reload 500 ms after saving (a failure reloads too).
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { saveArtistContent, saveTop50Content, uploadContentAudio, uploadContentPhoto } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { modalOpened } from '../../client/src/lib/ui';
import { pageReload } from '../../client/src/features/upload';
import { makeUser } from './auth-fixtures';
import {
  audioAnswer,
  chooseFile,
  findDialog,
  imageAnswer,
  mp3File,
  pick,
  pngFile,
  progressValue,
  renderSignedIn,
  stubObjectUrls,
  toastTexts,
  type,
} from './upload-fixtures';

jest.mock('../../client/src/api/generated/operations');

const content = { id: '64d000000000000000000009', title: 'So What' } as never;
const completionNow = () => progressValue('Form completion');

beforeEach(() => {
  jest.resetAllMocks();
  stubObjectUrls();
  jest.mocked(uploadContentPhoto).mockResolvedValue(imageAnswer());
  jest.mocked(uploadContentAudio).mockResolvedValue(audioAnswer());
});

async function open(request: Parameters<typeof modalOpened>[0], dialogName: string) {
  const app = await renderSignedIn(makeUser());
  act(() => void app.store.dispatch(modalOpened(request)));
  const dialog = await findDialog(dialogName);
  return { ...app, dialog };
}

describe('upload music (Top 50)', () => {
  it('when it opens, then only Music is offered, Music 2 pays $0.96 per play, and the weights are 20 each', async () => {
    const { store, dialog } = await open('upload-top50', 'Upload music (Top 50)');
    expect(dialog.getByRole('heading', { name: 'Upload music to the Top 50' })).toBeTruthy();
    expect(dialog.getByText('Step 1 of 2 · Details')).toBeTruthy();
    expect(screen.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent?.trim())).toEqual(['Music']);
    expect(completionNow()).toBe(0);
    type('Title', 'So What');
    await waitFor(() => expect(completionNow()).toBe(20));
    type('Email', 'not-an-email');
    fireEvent.blur(screen.getByLabelText('Email'));
    expect(await screen.findByText('Email must be valid')).toBeTruthy();
    expect(completionNow()).toBe(20);
    type('Email', 'miles@example.com');
    await waitFor(() => expect(completionNow()).toBe(40));
    type('Description', 'Modal, 1959');
    await waitFor(() => expect(completionNow()).toBe(60));
    await pick('Genre', 'Jazz');
    await waitFor(() => expect(completionNow()).toBe(80));
    // The sub-tag list shows what a play earns; Music 2 as 0.96 in this modal.
    expect(document.querySelector('.ant-select-item-option[title="Music 2"]')?.textContent).toContain('$0.96 / play');
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(completionNow()).toBe(100));
    // The song is required but carries no weight here.
    chooseFile('Audio', mp3File());
    await waitFor(() => expect(store.getState().upload.audio.file).not.toBeNull());
    expect(completionNow()).toBe(100);
  });

  it('when Next is pressed, then the email is confirmed on step 2; a failed save goes back to step 1, a good one closes', async () => {
    jest
      .mocked(saveTop50Content)
      .mockRejectedValueOnce(new ApiError('That upload was not found. Please upload the file again.', 400, 'bad_request'))
      .mockResolvedValueOnce({ content, message: 'Success' });
    const { store, dialog } = await open('upload-top50', 'Upload music (Top 50)');
    fireEvent.click(dialog.getByRole('button', { name: 'Next' }));
    for (const message of [
      'Title should not be empty',
      'Email must be valid',
      'Description should not be empty',
      'Tags should not be empty',
      'Should input photo',
      'Should input audio',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(store.getState().upload.step).toBe(1);

    type('Title', 'So What');
    type('Email', ' miles@example.com ');
    type('Description', 'Modal, 1959');
    await pick('Genre', 'Jazz');
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    chooseFile('Audio', mp3File());
    await waitFor(() => expect(store.getState().upload.audio.file).not.toBeNull());
    fireEvent.click(dialog.getByRole('button', { name: 'Next' }));

    expect(await dialog.findByRole('heading', { name: 'Is this your email?' })).toBeTruthy();
    expect(dialog.getByText('Step 2 of 2 · Confirm your email')).toBeTruthy();
    expect(dialog.getByText('miles@example.com', { exact: false })).toBeTruthy();
    expect(saveTop50Content).not.toHaveBeenCalled();

    fireEvent.click(dialog.getByRole('button', { name: 'Confirm and save' }));
    await waitFor(() => expect(store.getState().upload.status).toBe('failed'));
    expect(store.getState().upload.step).toBe(1);
    expect(await dialog.findByText('Step 1 of 2 · Details')).toBeTruthy();
    await waitFor(() => expect(toastTexts()).toContain('That upload was not found. Please upload the file again.'));
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('So What');

    fireEvent.click(dialog.getByRole('button', { name: 'Next' }));
    fireEvent.click(await dialog.findByRole('button', { name: 'Confirm and save' }));
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    expect(jest.mocked(saveTop50Content).mock.calls[1]![0].body).toEqual({
      title: 'So What',
      description: 'Modal, 1959',
      tags: [{ name: 'Music' }],
      subTag: 'Jazz',
      photoPath: 'images/2026/11/cover.jpg',
      audioPath: 'audio/2026/11/song.mp3',
      email: 'miles@example.com',
    });
  });
});

describe('upload to an artist page (upload-{name})', () => {
  async function fillArtist(store: Awaited<ReturnType<typeof open>>['store']) {
    type('Title', 'Freddie Freeloader');
    await waitFor(() => expect(completionNow()).toBe(20));
    await pick('Genre', 'Jazz');
    await waitFor(() => expect(completionNow()).toBe(40));
    type('Description', 'Take one');
    await waitFor(() => expect(completionNow()).toBe(60));
    chooseFile('Audio', mp3File());
    await waitFor(() => expect(store.getState().upload.audio.file).not.toBeNull());
    await waitFor(() => expect(completionNow()).toBe(80));
    chooseFile('Cover photo', pngFile());
    await waitFor(() => expect(store.getState().upload.photo.file).not.toBeNull());
    await waitFor(() => expect(completionNow()).toBe(100));
  }

  it('when saved, then content/save-artist gets the artist id and the page reloads 500 ms later', async () => {
    let reloadedAt = 0;
    let answeredAt = 0;
    const reload = jest.spyOn(pageReload, 'run').mockImplementation(() => {
      reloadedAt = Date.now();
    });
    jest.mocked(saveArtistContent).mockImplementation(async () => {
      answeredAt = Date.now();
      return { content, message: 'Success' };
    });
    const { store, dialog } = await open({ name: 'upload-artist', userId: '64b0000000000000000000aa', artistName: 'Miles' }, 'Upload to the artist page');
    expect(dialog.getByRole('heading', { name: "Upload to Miles's artist page" })).toBeTruthy();
    expect(screen.getAllByRole('radio')).toHaveLength(1);
    await fillArtist(store);
    fireEvent.click(dialog.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(saveArtistContent).toHaveBeenCalled());
    expect(jest.mocked(saveArtistContent).mock.calls[0]![0].body).toMatchObject({
      userId: '64b0000000000000000000aa',
      tags: [{ name: 'Music' }],
      subTag: 'Jazz',
    });
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(reloadedAt - answeredAt).toBeGreaterThanOrEqual(495);
    expect(store.getState().ui.modal).toBeNull();
    reload.mockRestore();
  });

  it('when the save fails, then the message shows and the page reloads too', async () => {
    const reload = jest.spyOn(pageReload, 'run').mockImplementation(() => undefined);
    jest.mocked(saveArtistContent).mockRejectedValue(new ApiError("You can't change another member's profile.", 403, 'forbidden'));
    const { store, dialog } = await open({ name: 'upload-artist', userId: '64b0000000000000000000bb' }, 'Upload to the artist page');
    await fillArtist(store);
    fireEvent.click(dialog.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(store.getState().upload.status).toBe('failed'));
    await waitFor(() => expect(toastTexts()).toContain("You can't change another member's profile."));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    reload.mockRestore();
  });
});
