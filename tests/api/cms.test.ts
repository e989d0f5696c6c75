import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { NativePostModel } from '../../server/modules/cms';
import { AuditEntryModel } from '../../server/modules/audit/testing';
import { defaultPageMeta, type MetaPage } from '../../client/src/features/cms';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, type TestMember } from '../helpers/ledger-factory';

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

describe('the content pages', () => {
  it.each([
    ['become', ['listeners', 'creators', 'supporters']],
    ['earning', ['normal', 'faq']],
    ['user-guide', ['introduction', 'title-box', 'showcase', 'nav-menu', 'rules']],
  ])('when a visitor opens %s, then its sections come in order, each as HTML rendered from the Markdown', async (page, keys) => {
    const res = await request(app).get(`/api/v2/cms-pages/${page}`).expect(200);
    expect(res.body.page.id).toBe(page);
    expect(res.body.page.sections.map((section: { key: string }) => section.key)).toEqual(keys);
    for (const section of res.body.page.sections) expect(section.html).toMatch(/^<(p|h2|h3|ol|ul)>/);
  });

  it('when a visitor reads how earnings work, then the figures are the product’s own: the split, the fees, the payout day and minimum', async () => {
    const { page } = (await request(app).get('/api/v2/cms-pages/earning').expect(200)).body;
    const normal = page.sections[0].html as string;
    expect(normal).toContain('<td>90%</td>');
    expect(normal).toContain('the song earns 200 × $0.05 = <strong>$10.00</strong>');
    expect(normal).toContain('$0.65, or $12.40 for a premium tag');
    expect(normal).toContain('On the 1st of each month, every balance of <strong>$10.00 or more</strong>');
    expect(normal).toContain('<a href="/verify">proof page</a>');
  });

  it('when a page is not one of the content pages, then 400', async () => {
    await request(app).get('/api/v2/cms-pages/wallet').expect(400);
  });
});

describe('admins edit the pages and the blog', () => {
  let admin: TestMember;
  let member: TestMember;
  const put = (url: string, caller: TestMember, body: object) => request(app).put(`/api/v2${url}`).set(bearer(caller)).send(body);
  const source = async (page: string) => (await request(app).get(`/api/v2/admin/cms-pages/${page}`).set(bearer(admin)).expect(200)).body.page;

  beforeAll(async () => {
    [admin, member] = await Promise.all([adminMember(), createMember()]);
  });

  it('when an admin saves a section with script, event handlers and a javascript: link, then visitors get only the text, the safe link and the image', async () => {
    const page = await source('become');
    const sections = page.sections.map((section: { key: string; title: string; body: string }) =>
      section.key !== 'supporters'
        ? section
        : {
            ...section,
            body: [
              '# Back an artist',
              '<script>alert(1)</script>',
              '<img src="x" onerror="alert(2)">',
              '[click](javascript:alert(3)) and [pricing](/pricing) and [elsewhere](https://example.org/page)',
              '![cover](https://example.org/cover.png)',
            ].join('\n\n'),
          },
    );
    const saved = await put('/admin/cms-pages/become', admin, { title: page.title, description: page.description, sections }).expect(200);
    expect(saved.body.message).toBe('The page is saved. Visitors see it now.');

    const { page: shown } = (await request(app).get('/api/v2/cms-pages/become').expect(200)).body;
    const html = shown.sections[2].html as string;
    expect(html).toContain('<h2>Back an artist</h2>');
    // No element runs anything: the raw HTML shows as the text it is, and the javascript: link stays text.
    expect(html).not.toMatch(/<script|<[a-z]+[^>]*\son[a-z]+=|href="javascript:/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('[click](javascript:alert(3))');
    expect(html).toContain('<a href="/pricing">pricing</a>');
    expect(html).toContain('<a href="https://example.org/page" target="_blank" rel="noopener noreferrer nofollow">elsewhere</a>');
    expect(html).toContain('<img src="https://example.org/cover.png" alt="cover" />');

    const entries = await AuditEntryModel.find({ action: 'updateCmsPage' }).lean();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorEmail: admin.email, targetKind: 'page', targetId: 'become', after: { changedSections: 'supporters' } });
  });

  it('when the sections are not the page’s own, or a member saves, then nothing changes', async () => {
    const page = await source('earning');
    const reordered = [...page.sections].reverse();
    const refused = await put('/admin/cms-pages/earning', admin, { title: 'Changed', description: '', sections: reordered }).expect(400);
    expect(refused.body.message).toBe("The sections must be the page's own: normal, faq.");
    const byMember = await put('/admin/cms-pages/earning', member, { title: 'Changed', description: '', sections: page.sections }).expect(403);
    expect(byMember.body.message).toBe('Only admins can edit the pages.');
    await request(app).get('/api/v2/admin/cms-pages/earning').set(bearer(member)).expect(403);
    expect((await source('earning')).title).toBe('Earn with Knack');
  });

  it('when an admin writes a draft, then publishes it, then edits it, then it is listed once published and keeps its publication time', async () => {
    const slug = `notes-${Date.now().toString(36)}`;
    const blank = await put(`/admin/native-posts/${slug}`, admin, { title: ' ', excerpt: '', body: 'x', status: 'draft' }).expect(400);
    expect(blank.body.message).toBe('A post needs a title and a body.');

    const draft = await put(`/admin/native-posts/${slug}`, admin, {
      title: 'Studio notes',
      excerpt: 'What we built',
      body: '## Hello\n\nFirst **post**.',
      status: 'draft',
    }).expect(200);
    expect(draft.body).toMatchObject({ message: 'The post is saved as a draft.', post: { slug, status: 'draft', publishedAt: null } });
    await request(app).get(`/api/v2/native-posts/${slug}`).expect(404);
    expect((await request(app).get('/api/v2/native-posts').expect(200)).body.posts.map((post: { slug: string }) => post.slug)).not.toContain(slug);

    const published = await put(`/admin/native-posts/${slug}`, admin, {
      title: 'Studio notes',
      excerpt: 'What we built',
      body: '## Hello\n\nFirst **post**.',
      status: 'published',
    }).expect(200);
    expect(published.body.message).toBe('The post is published.');
    const publishedAt = published.body.post.publishedAt as string;
    expect(Date.parse(publishedAt)).not.toBeNaN();
    const read = (await request(app).get(`/api/v2/native-posts/${slug}`).expect(200)).body.post;
    expect(read.html).toBe('<h2>Hello</h2>\n<p>First <strong>post</strong>.</p>\n');
    const list = (await request(app).get('/api/v2/native-posts').expect(200)).body.posts;
    expect(list[0]).toEqual({ slug, title: 'Studio notes', excerpt: 'What we built', publishedAt });

    const edited = await put(`/admin/native-posts/${slug}`, admin, {
      title: 'Studio notes, again',
      excerpt: 'What we built',
      body: 'Changed.',
      status: 'published',
    }).expect(200);
    expect(edited.body.post).toMatchObject({ title: 'Studio notes, again', publishedAt });
    const all = (await request(app).get('/api/v2/admin/native-posts').set(bearer(admin)).expect(200)).body.posts;
    expect(all.filter((post: { slug: string }) => post.slug === slug)).toHaveLength(1);
    expect(await AuditEntryModel.countDocuments({ action: 'saveNativePost', targetId: slug })).toBe(3);
    await put(`/admin/native-posts/${slug}`, member, { title: 'Mine', excerpt: '', body: 'x', status: 'published' }).expect(403);
  });

  it('when the blog is paged, then each post shows once, the newest first', async () => {
    const base = Date.now() - 3_600_000;
    await NativePostModel.insertMany(
      Array.from({ length: 5 }, (_, n) => ({
        slug: `paged-${n}`,
        title: `Paged ${n}`,
        body: 'x',
        status: 'published',
        publishedAt: new Date(base + n * 1000),
      })),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await request(app)
        .get('/api/v2/native-posts')
        .query({ limit: 2, ...(cursor ? { cursor } : {}) })
        .expect(200);
      seen.push(...res.body.posts.map((post: { slug: string }) => post.slug));
      cursor = res.body.nextCursor;
    } while (cursor);
    const paged = seen.filter((slug) => slug.startsWith('paged-'));
    expect(paged).toEqual(['paged-4', 'paged-3', 'paged-2', 'paged-1', 'paged-0']);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('when an admin previews Markdown, then it comes back as the pages would show it, and the audit log records nothing', async () => {
    const res = await request(app).post('/api/v2/admin/cms-preview').set(bearer(admin)).send({ markdown: '**Bold** <b>raw</b>' }).expect(200);
    expect(res.body.html).toBe('<p><strong>Bold</strong> &lt;b&gt;raw&lt;/b&gt;</p>\n');
    expect(await AuditEntryModel.countDocuments({ action: 'previewMarkdown' })).toBe(0);
    await request(app).post('/api/v2/admin/cms-preview').set(bearer(member)).send({ markdown: 'x' }).expect(403);
  });
});

describe('a blog post’s link preview', () => {
  it('when a chat app reads a published post’s page, then its title and excerpt are the Open Graph tags; a draft is not described', async () => {
    const page = await request(app).get('/blog/how-knack-works').expect(200);
    expect(page.text).toContain('<meta property="og:title" content="How Knack works | Knack">');
    expect(page.text).toContain('<meta property="og:type" content="article">');
    expect(page.text).toContain(
      '<meta property="og:description" content="Every play and view of a listed piece earns knack for its creator and its supporter.">',
    );
    await NativePostModel.create({ slug: 'secret-draft', title: 'Secret', body: 'x' });
    expect((await request(app).get('/blog/secret-draft').expect(200)).text).not.toContain('Secret');
  });
});
