import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { NativePostModel } from '../../server/modules/cms';
import { defaultPageMeta, type MetaPage } from '../../client/src/features/cms';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';

useTestDatabase();
const app = createTestApp();

beforeAll(async () => {
  await seedReferenceData();
});

describe('GET /api/v2/page-ui/{name}', () => {
  it('when the footer is asked for, then its four columns come with name and link entries', async () => {
    const res = await request(app).get('/api/v2/page-ui/footer').expect(200);
    const { pageUi } = res.body;
    expect(pageUi.name).toBe('footer');
    expect(pageUi.sections.map((s: { title: string }) => s.title)).toEqual(['SUPPORT', 'SOCIAL', 'TRENDING', 'MOST VIEWED']);
    for (const section of pageUi.sections) {
      expect(section.entries.length).toBeGreaterThan(0);
      for (const entry of section.entries) expect(entry).toEqual({ name: expect.any(String), link: expect.any(String) });
    }
    expect(Date.parse(pageUi.updatedAt)).not.toBeNaN();
  });

  it('when no page UI has that name, then 404', async () => {
    const res = await request(app).get('/api/v2/page-ui/header-banner').expect(404);
    expect(res.body).toMatchObject({ code: 'not_found', message: 'No page UI named "header-banner"' });
  });

  it('when the name is not a slug, then 400', async () => {
    await request(app).get('/api/v2/page-ui/Foot%20er').expect(400);
  });
});

describe('GET /api/v2/pages-metas/{page}', () => {
  it.each(['meta', 'home', 'earn', 'become', 'explore'])('when the %s page is asked for, then it has a title and meta, og and twitter items', async (page) => {
    const res = await request(app).get(`/api/v2/pages-metas/${page}`).expect(200);
    const { pageMeta } = res.body;
    expect(pageMeta.page).toBe(page);
    expect(pageMeta.title).toMatch(/Knack/);
    expect(pageMeta.meta).toContainEqual({ property: 'description', content: expect.stringMatching(/\w/) });
    expect(pageMeta.facebook).toContainEqual({ property: 'og:title', content: pageMeta.title });
    expect(pageMeta.twitter).toContainEqual({ property: 'twitter:card', content: 'summary_large_image' });
  });

  it.each<MetaPage>(['meta', 'home', 'earn', 'become', 'explore'])(
    'when the %s page is asked for, then the answer is exactly the built-in default the client falls back to when the CMS fails',
    async (page) => {
      const res = await request(app).get(`/api/v2/pages-metas/${page}`).expect(200);
      expect(res.body.pageMeta).toEqual(defaultPageMeta(page));
    },
  );

  it('when the explore page is asked for, then its description is its own, not the site-wide one', async () => {
    const res = await request(app).get('/api/v2/pages-metas/explore').expect(200);
    expect(res.body.pageMeta.meta).toContainEqual({
      property: 'description',
      content: 'Discover popular, featured, trending and up-and-coming creators of music, art and photos.',
    });
    expect(defaultPageMeta('explore').meta).toContainEqual({
      property: 'description',
      content: 'Discover popular, featured, trending and up-and-coming creators of music, art and photos.',
    });
  });

  it('when the page has no metadata, then 404 (the client falls back to its defaults)', async () => {
    await request(app).get('/api/v2/pages-metas/wallet').expect(404);
  });
});

describe('GET /api/v2/native-posts/{slug}', () => {
  it('when the post is published, then it is returned', async () => {
    const res = await request(app).get('/api/v2/native-posts/how-knack-works').expect(200);
    expect(res.body.post).toMatchObject({ slug: 'how-knack-works', title: 'How Knack works' });
    expect(res.body.post.body).toContain('90% goes to the creator');
  });

  it('when the post is a draft or scheduled for later, then 404 as if it did not exist', async () => {
    await NativePostModel.create({ slug: 'draft-post', title: 'Draft', body: 'not yet' });
    await NativePostModel.create({
      slug: 'scheduled-post',
      title: 'Later',
      body: 'soon',
      status: 'published',
      publishedAt: new Date(Date.now() + 86_400_000),
    });
    await request(app).get('/api/v2/native-posts/draft-post').expect(404);
    await request(app).get('/api/v2/native-posts/scheduled-post').expect(404);
  });

  it('when the slug has operator-like or illegal characters, then 400', async () => {
    await request(app).get('/api/v2/native-posts/%24where').expect(400);
    await request(app).get('/api/v2/native-posts/UPPER').expect(400);
  });
});
