/**
 * Projects in the client: the project modal from the detail modal's owner menu (tabs 'Add to project' and 'Create a
 * project', the spec's two messages before anything is sent, the success toasts), a profile's Projects tab where a
 * project opens as a list and Play all queues its songs in the player bar, and the owner removing a project by double
 * click (or its Remove button) after confirming. The generated operations are mocked; store, router and layout are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  addToProject,
  checkLoggedIn,
  deleteProject,
  getAllPlans,
  getMessageCounts,
  getProjectContents,
  getProjectsOfUser,
  getSubscription,
  getUserExt,
  saveProject,
} from '../../client/src/api/generated/operations';
import { authAnswer, makeUser, storeAccount } from './auth-fixtures';
import { plansAnswer } from './subscription-fixtures';
import { JANE_ID, cardLink, detailDialog, makeContent, renderAt, stubMedia, toastTexts, useJaneWorld } from './profile-fixtures';

jest.mock('../../client/src/api/generated/operations');

const world = useJaneWorld();
const jane = makeUser({ id: JANE_ID, username: 'jane_doe' });

type Project = Awaited<ReturnType<typeof getProjectsOfUser>>['projects'][number];
const project = (id: string, projectName: string, contentIds: string[] = []): Project => ({
  id,
  projectName,
  userId: JANE_ID,
  ownerName: 'Jane Doe',
  ownerUsername: 'jane_doe',
  contentIds,
  pieceCount: contentIds.length,
  coverPath: null,
  reactedCount: 0,
  createdAt: '2026-11-01T10:00:00.000Z',
});
const TOUR = project('65a000000000000000000001', 'Summer Tour');

function signIn(user = jane) {
  window.localStorage.clear();
  storeAccount('stored-token', user);
  jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('fresh-token', user));
  jest.mocked(getUserExt).mockResolvedValue({ userExt: { country: null, city: '', state: '', timezone: null, pCredit: 0, sCredit: 0 } });
  jest.mocked(getProjectsOfUser).mockResolvedValue({ projects: [TOUR] });
  // The inbox's unread badge asks for the counts on every signed-in page.
  jest.mocked(getMessageCounts).mockResolvedValue({ unread: 0, important: 0, deleted: 0, total: 0 });
  // The side menu asks for the member's subscription and the plans on every signed-in page.
  jest.mocked(getSubscription).mockResolvedValue({ subscription: null });
  jest.mocked(getAllPlans).mockResolvedValue(plansAnswer([]));
}

/** Jane's profile, `title` opened in the detail modal, then its owner menu's Project: the project dialog. */
async function openProjectModal(title = 'Blue Hour') {
  stubMedia();
  const app = renderAt('/jane_doe');
  fireEvent.click(await cardLink(title));
  const detail = await detailDialog(title);
  fireEvent.click(await detail.findByRole('button', { name: `Options for ${title}` }));
  fireEvent.click(await screen.findByRole('menuitem', { name: /Project/ }));
  const node = await waitFor(
    () => {
      const found = document.querySelector<HTMLElement>('.kn-project-modal [role="dialog"]');
      if (!found) throw new Error('no project dialog');
      return found;
    },
    { timeout: 5000 },
  );
  const dialog = within(node);
  return { ...app, dialog };
}

describe('the project modal', () => {
  it('when Jane adds a piece without choosing a project, then "Project should be selected."; once chosen, it is added with the toast', async () => {
    signIn();
    jest.mocked(addToProject).mockResolvedValue({ project: TOUR, message: 'The content is added to project successfully.' });
    const { dialog, store } = await openProjectModal();
    expect(dialog.getByRole('tab', { name: 'Add to project' })).toBeTruthy();
    expect(dialog.getByRole('tab', { name: 'Create a project' })).toBeTruthy();

    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    expect((await dialog.findByRole('alert')).textContent).toContain('Project should be selected.');
    expect(addToProject).not.toHaveBeenCalled();

    await waitFor(() => expect(getProjectsOfUser).toHaveBeenCalledWith({ path: { userId: JANE_ID } }, expect.anything()));
    fireEvent.mouseDown(dialog.getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Summer Tour'));
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(toastTexts()).toContain('The content is added to project successfully.'));
    // Quiet, saying why: the modal shows a failure under its fields.
    expect(addToProject).toHaveBeenCalledWith(
      { body: { projectId: TOUR.id, contentId: world.pieces[0]!.id } },
      expect.objectContaining({ quiet: expect.stringMatching(/\S/) }),
    );
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
  });

  it('when Jane creates a project without a name, then "Project name should not be empty"; with one, it is made with the piece and the toast', async () => {
    signIn();
    jest.mocked(saveProject).mockResolvedValue({ project: TOUR, message: 'Project is added successfully.' });
    const { dialog } = await openProjectModal();
    fireEvent.click(dialog.getByRole('tab', { name: 'Create a project' }));
    fireEvent.click(await dialog.findByRole('button', { name: 'Create' }));
    expect((await dialog.findByRole('alert')).textContent).toContain('Project name should not be empty');
    expect(saveProject).not.toHaveBeenCalled();

    fireEvent.change(dialog.getByLabelText('Project name'), { target: { value: '  Summer Tour ' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(toastTexts()).toContain('Project is added successfully.'));
    expect(saveProject).toHaveBeenCalledWith(
      { body: { userId: JANE_ID, projectName: 'Summer Tour', contentIds: JSON.stringify([world.pieces[0]!.id]) } },
      expect.objectContaining({ quiet: expect.stringMatching(/\S/) }),
    );
  });
});

describe('who is offered Project', () => {
  /** The entries of the owner menu on `title`, opened from Jane's profile. */
  async function ownerMenuEntries(title = 'Blue Hour') {
    stubMedia();
    renderAt('/jane_doe');
    fireEvent.click(await cardLink(title));
    const detail = await detailDialog(title);
    fireEvent.click(await detail.findByRole('button', { name: `Options for ${title}` }));
    await screen.findByRole('menuitem', { name: /Privacy/ });
    return screen.getAllByRole('menuitem').map((item) => item.textContent);
  }

  it('when Jane opens the owner menu on her piece, then it offers Privacy, Project and Replace file', async () => {
    signIn();
    expect(await ownerMenuEntries()).toEqual(['Privacy', 'Project', 'Replace file']);
  });

  it('when an admin opens the owner menu on Jane’s piece, then it offers Privacy and the admin’s actions, never Project: the server puts a piece only in its owner’s projects', async () => {
    signIn(makeUser({ id: '64b0000000000000000000ad', username: 'site_admin', email: 'admin@knack.example', role: 'admin' }));
    expect(await ownerMenuEntries()).toEqual(['Privacy', 'Replace file', 'Re-post', 'Hide', 'Delete']);
  });
});

describe('the Projects tab', () => {
  it('when a visitor opens a project on Jane’s profile, then its pieces list, and Play all queues its songs in the bar', async () => {
    window.localStorage.clear();
    stubMedia();
    const songs = [
      makeContent({ title: 'Night Drive', type: 'music', tags: [{ name: 'Music' }], isAudio: true, isImage: false, duration: 187 }),
      makeContent({ title: 'Dawn Ride', type: 'music', tags: [{ name: 'Music' }], isAudio: true, isImage: false, duration: 120 }),
    ];
    const photo = world.pieces[0]!;
    const withPieces = project(TOUR.id, TOUR.projectName, [songs[0]!.id, photo.id, songs[1]!.id]);
    jest.mocked(getProjectsOfUser).mockResolvedValue({ projects: [withPieces] });
    jest.mocked(getProjectContents).mockResolvedValue({ project: withPieces, contents: [songs[0]!, photo, songs[1]!] });
    const { store } = renderAt('/jane_doe');
    fireEvent.click(await screen.findByRole('link', { name: 'Projects' }));
    const card = await screen.findByRole('button', { name: 'Summer Tour' });
    expect(within(card.closest('li')!).getByText('3 pieces')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove Summer Tour' })).toBeNull();
    fireEvent.click(card);

    const list = within(await screen.findByRole('list', { name: 'Pieces of Summer Tour' }));
    expect(list.getAllByRole('listitem').map((row) => row.textContent)).toEqual(['Night DriveSong', 'Blue HourPhotos', 'Dawn RideSong']);
    expect(getProjectContents).toHaveBeenCalledWith({ path: { id: TOUR.id } }, expect.anything());
    fireEvent.click(screen.getByRole('button', { name: /Play all/ }));
    await waitFor(() => expect(store.getState().player.queue.map((piece) => piece.title)).toEqual(['Night Drive', 'Dawn Ride']));
    expect(store.getState().player.index).toBe(0);
    expect(store.getState().player.status).toBe('playing');
  });

  it('when Jane double-clicks her project, then she is asked to confirm, and Remove removes it with the toast', async () => {
    signIn();
    jest.mocked(deleteProject).mockResolvedValue({ message: 'The project is removed successfully.' });
    renderAt('/profile/projects');
    const name = await screen.findByRole('button', { name: 'Summer Tour' });
    expect(screen.getByText('Double-click a project to remove it.')).toBeTruthy();

    fireEvent.doubleClick(name.closest('li')!);
    const confirm = within(await screen.findByRole('dialog', { name: 'Remove this project?' }));
    expect(confirm.getByText(/Its pieces stay published/)).toBeTruthy();
    jest.mocked(getProjectsOfUser).mockResolvedValue({ projects: [] });
    fireEvent.click(confirm.getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(toastTexts()).toContain('The project is removed successfully.'));
    // Not quiet: a failure is toasted by the HTTP client, with the server's message.
    expect(deleteProject).toHaveBeenCalledWith({ body: { projectId: TOUR.id } }, expect.objectContaining({ quiet: undefined }));
    expect(await screen.findByText(/You have no projects yet/)).toBeTruthy();
  });

  it('when Jane makes a project with New project, then her Projects tab lists it once the modal closes', async () => {
    signIn();
    const made = project('65a000000000000000000002', 'Winter Tour');
    // The server keeps the project: the list answers with it from then on.
    jest.mocked(saveProject).mockImplementation(async () => {
      jest.mocked(getProjectsOfUser).mockResolvedValue({ projects: [TOUR, made] });
      return { project: made, message: 'Project is added successfully.' };
    });
    const { store } = renderAt('/profile/projects');
    await screen.findByRole('button', { name: 'Summer Tour' });
    fireEvent.click(screen.getByRole('button', { name: 'New project' }));
    const dialog = within(
      await waitFor(
        () => {
          const found = document.querySelector<HTMLElement>('.kn-project-modal [role="dialog"]');
          if (!found) throw new Error('no project dialog');
          return found;
        },
        { timeout: 5000 },
      ),
    );
    fireEvent.click(dialog.getByRole('tab', { name: 'Create a project' }));
    fireEvent.change(dialog.getByLabelText('Project name'), { target: { value: 'Winter Tour' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(toastTexts()).toContain('Project is added successfully.'));
    await waitFor(() => expect(store.getState().ui.modal).toBeNull());
    expect(await screen.findByRole('button', { name: 'Winter Tour' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Summer Tour' })).toBeTruthy();
  });

  it('when Jane uses the Remove button and cancels, then nothing is removed', async () => {
    signIn();
    renderAt('/profile/projects');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Summer Tour' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Remove this project?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove this project?' })).toBeNull());
    expect(deleteProject).not.toHaveBeenCalled();
  });
});
