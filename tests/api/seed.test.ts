import { seedReferenceData } from '../../server/db/seed';
import { CmsPageModel, PageUiModel, NativePostModel, PageMetaModel } from '../../server/modules/cms';
import { PlanModel } from '../../server/modules/subscriptions';
import { TagHistoryModel, TagModel } from '../../server/modules/tags';
import { clearDatabase, useTestDatabase } from '../helpers/db';

useTestDatabase();
beforeEach(clearDatabase);

describe('seeding reference data', () => {
  it('when run twice, then nothing is duplicated', async () => {
    await seedReferenceData();
    await seedReferenceData();
    expect(await TagModel.countDocuments()).toBe(34);
    expect(await TagModel.countDocuments({ parentTag: null })).toBe(3);
    expect(await TagHistoryModel.countDocuments()).toBe(34);
    expect(await PlanModel.find({}, { _id: 0, planId: 1, sCredits: 1, pCredits: 1 }).sort({ planId: 1 }).lean()).toEqual([
      { planId: 1, sCredits: 3, pCredits: 0 },
      { planId: 2, sCredits: 1, pCredits: 1 },
    ]);
    expect((await PageMetaModel.find().lean()).map((m) => m.page).sort()).toEqual(['become', 'blog', 'earn', 'explore', 'guide', 'home', 'meta']);
    expect(await PageUiModel.countDocuments({ name: 'footer' })).toBe(1);
    expect(await NativePostModel.countDocuments({ status: 'published' })).toBe(2);
    expect((await CmsPageModel.find({}, { _id: 1 }).lean()).map((page) => page._id).sort()).toEqual(['become', 'earning', 'user-guide']);
  });

  it('when an editor changed the footer, a content page or a tag price, then seeding again keeps the edit', async () => {
    await seedReferenceData();
    await PageUiModel.updateOne({ name: 'footer' }, { $set: { sections: [{ title: 'SUPPORT', entries: [{ name: 'Help', link: '/help' }] }] } });
    await CmsPageModel.updateOne({ _id: 'become' }, { $set: { title: 'How it works, edited' } });
    await TagModel.updateOne({ labelLower: 'rock' }, { $set: { priceMicros: 1_000_000 } });
    await seedReferenceData();
    const footer = await PageUiModel.findOne({ name: 'footer' }).lean();
    expect(footer?.sections).toEqual([{ title: 'SUPPORT', entries: [{ name: 'Help', link: '/help' }] }]);
    expect((await TagModel.findOne({ labelLower: 'rock' }).lean())?.priceMicros).toBe(1_000_000);
    expect((await CmsPageModel.findById('become').lean())?.title).toBe('How it works, edited');
  });
});
