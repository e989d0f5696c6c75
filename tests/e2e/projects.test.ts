/**
 * Projects in Chromium, as two new members would use them: Ana makes a project of two of her songs from her
 * profile's Projects tab (the project modal's 'Create a project'), and Bea opens it on Ana's public profile and plays
 * it through the player bar with Play all. Screenshots land in tests/e2e/screenshots/projects-*.png.
 */
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';
import { dialog, toast } from '../helpers/e2e-upload';

useTestDatabase();
jest.setTimeout(120_000);

const world = usePiecesWorld('projects');

describe('projects in Chromium', () => {
  it('when Ana makes a project of two of her songs, then Bea opens it on her profile and Play all plays the first song in the bar', async () => {
    await world.publish(world.ana, { title: 'Harbor Lights', tag: 'Music', subTag: 'Rock', hue: 210, seconds: 3 });
    await world.publish(world.ana, { title: 'Tide Song', tag: 'Music', subTag: 'Rock', hue: 30, seconds: 3 });

    const ana = await signedInPage(world, world.ana, { viewport: DESKTOP });
    const anaErrors = watchErrors(ana);
    await ana.goto(`${world.baseUrl}/profile/projects`, { waitUntil: 'networkidle' });
    await ana.getByRole('button', { name: 'New project' }).click();
    const modal = dialog(ana, 'Project');
    await modal.getByRole('tab', { name: 'Create a project' }).click();
    await modal.getByLabel('Project name').fill('Summer Set');
    await modal.getByRole('checkbox', { name: 'Harbor Lights' }).check();
    await modal.getByRole('checkbox', { name: 'Tide Song' }).check();
    await screenshot(ana, 'projects-create-desktop');
    await modal.getByRole('button', { name: 'Create' }).click();
    await toast(ana, 'Project is added successfully.');
    const card = ana.getByRole('listitem').filter({ has: ana.getByRole('button', { name: 'Summer Set' }) });
    await card.getByText('2 pieces').waitFor();
    await screenshot(ana, 'projects-own-desktop');
    expect(anaErrors).toEqual([]);
    await ana.context().close();

    const bea = await signedInPage(world, world.bea, { viewport: DESKTOP });
    const beaErrors = watchErrors(bea);
    await bea.goto(`${world.baseUrl}/${world.ana.form.username}?tab=projects`, { waitUntil: 'networkidle' });
    await bea.getByRole('button', { name: 'Summer Set' }).click();
    const list = bea.getByRole('list', { name: 'Pieces of Summer Set' });
    await list.getByRole('button', { name: 'Harbor Lights' }).waitFor();
    await list.getByRole('button', { name: 'Tide Song' }).waitFor();
    await bea.getByRole('button', { name: /Play all/ }).click();
    const player = bea.getByRole('region', { name: 'Player' });
    await player.getByRole('button', { name: 'Harbor Lights' }).waitFor();
    await bea.locator('section.kn-player[data-status="playing"]').waitFor();
    await screenshot(bea, 'projects-playing-desktop');

    await bea.setViewportSize(PHONE);
    await bea.locator('.kn-shell--phone').waitFor();
    await player.getByRole('button', { name: 'Harbor Lights' }).waitFor();
    await screenshot(bea, 'projects-playing-phone');
    await bea.getByRole('button', { name: 'Back to projects' }).click();
    await bea.getByRole('button', { name: 'Summer Set' }).waitFor();
    await screenshot(bea, 'projects-list-phone');
    expect(beaErrors).toEqual([]);
    await bea.context().close();
  });
});
