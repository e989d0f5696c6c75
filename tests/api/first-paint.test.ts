/**
 * The first paint: the HTML of a public page carries its main content before the app's root, drawn with the app's
 * class names, so a phone shows the page before the scripts have run. The landing page's hero, the content pages
 * (the section the address names), the blog's list and a post, Explore and a profile with their first pieces, and a
 * shared piece; never a piece or post a visitor may not read, and nothing on the app's other screens. A phone's user
 * agent gets the phone's frame.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { isPhoneUserAgent } from '../../server/lib/firstPaint';
import { NativePostModel } from '../../server/modules/cms';
import { ContentModel } from '../../server/modules/contents';
import { isPhoneUserAgent as appIsPhoneUserAgent } from '../../client/src/lib/ui/viewport';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece } from '../helpers/ledger-factory';

useTestDatabase();
const app = createTestApp();

const PHONE = 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Safari/537.36';
const TABLET = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** The page's HTML, and its first paint alone ('' when it has none). */
async function page(path: string, userAgent = DESKTOP) {
  const res = await request(app).get(path).set('User-Agent', userAgent).expect(200).expect('Content-Type', /html/);
  const html = res.text;
  const start = html.indexOf('<div id="kn-first-paint"');
  const root = html.indexOf('<div id="root"></div>');
  expect(root).toBeGreaterThan(-1);
  return { html, firstPaint: start < 0 ? '' : html.slice(start, root) };
}

const headings = (html: string, level: number) => [...html.matchAll(new RegExp(`<h${level}[^>]*>(.*?)</h${level}>`, 'g'))].map((match) => match[1]);
/** The titles of the content page's sections shown (not the headings inside their text). */
const sectionTitles = (html: string) => [...html.matchAll(/<h2 [^>]*class="kn-cms__section-title">(.*?)<\/h2>/g)].map((match) => match[1]);

beforeAll(async () => {
  await seedReferenceData();
});

describe('the first paint of public pages', () => {
  it('when the landing page is asked for, then its hero comes first, with the sign-up link; a phone gets the phone frame, a tablet the wide one', async () => {
    const { firstPaint } = await page('/');
    expect(headings(firstPaint, 1)).toEqual(['Get paid for every play and view.']);
    expect(firstPaint).toContain('<a class="kn-button kn-button--primary kn-button--large" href="/auth/signup"><span>Join For Free</span></a>');
    expect(firstPaint).toContain('<div class="kn-rail"></div>');
    expect(firstPaint).not.toContain('kn-shell--phone');

    expect((await page('/', PHONE)).firstPaint).toContain('class="kn-shell kn-first-paint kn-shell--phone"');
    // The page differs by device: a cache in between keeps one copy per user agent.
    expect((await request(app).get('/').expect(200)).headers.vary).toMatch(/User-Agent/);
    expect((await page('/', PHONE)).firstPaint).not.toContain('kn-rail');
    expect((await page('/', TABLET)).firstPaint).not.toContain('kn-shell--phone');
  });

  it('when a content page is asked for, then it shows the section its address names, every section at /become and /become/all, the first for an unknown one', async () => {
    const all = (await page('/become')).firstPaint;
    expect(headings(all, 1)).toEqual(['How Knack works']);
    expect(sectionTitles(all)).toEqual(['For listeners and viewers', 'For creators', 'For supporters']);
    expect(all).toContain('<a class="kn-cms__tab is-active" href="/become/all" aria-current="page">Everyone</a>');
    expect(sectionTitles((await page('/become/all')).firstPaint)).toHaveLength(3);

    const creators = (await page('/become/creators')).firstPaint;
    expect(sectionTitles(creators)).toEqual(['For creators']);
    expect(creators).toContain('<a class="kn-cms__tab is-active" href="/become/creators" aria-current="page">For creators</a>');

    expect(sectionTitles((await page('/earning/faq')).firstPaint)).toEqual(['Questions and answers']);
    expect(sectionTitles((await page('/earning/nothing-here')).firstPaint)).toEqual(['How earnings work']);
    expect(sectionTitles((await page('/user-guide')).firstPaint)).toEqual(['Introduction']);
  });

  it('when an admin has edited a page, then the first paint shows the edit, sanitised as the API serves it', async () => {
    const admin = await adminMember();
    const { page: source } = (await request(app).get('/api/v2/admin/cms-pages/earning').set(bearer(admin)).expect(200)).body;
    const sections = source.sections.map((section: { key: string; title: string; body: string }) =>
      section.key === 'faq' ? { ...section, body: '### Paid on the 1st\n\n<script>alert(1)</script>' } : section,
    );
    await request(app)
      .put('/api/v2/admin/cms-pages/earning')
      .set(bearer(admin))
      .send({ title: source.title, description: source.description, sections })
      .expect(200);
    const { firstPaint } = await page('/earning/faq');
    const { page: served } = (await request(app).get('/api/v2/cms-pages/earning').expect(200)).body;
    expect(firstPaint).toContain('<h3>Paid on the 1st</h3>');
    expect(firstPaint).toContain(served.sections.find((section: { key: string }) => section.key === 'faq').html);
    expect(firstPaint).not.toContain('<script>');
  });

  it('when the blog or a published post is asked for, then the list or the whole post comes first; a draft or a missing post has none', async () => {
    const list = (await page('/blog')).firstPaint;
    expect(headings(list, 1)).toEqual(['The Knack blog']);
    expect(list).toContain('<a href="/blog/how-knack-works">How Knack works</a>');

    const { html, firstPaint } = await page('/blog/how-knack-works');
    expect(headings(firstPaint, 1)).toEqual(['How Knack works']);
    expect(firstPaint).toContain('<a class="kn-back-link" href="/blog">← All posts</a>');
    expect(headings(firstPaint, 2)).toContain('Get paid');
    expect(html).toContain('<meta property="og:title" content="How Knack works | Knack">');

    await NativePostModel.create({ slug: 'secret-draft', title: 'Secret', body: 'Not yet' });
    const draft = await page('/blog/secret-draft');
    expect(draft.firstPaint).toBe('');
    expect(draft.html).not.toContain('Secret');
    expect((await page('/blog/no-such-post')).firstPaint).toBe('');
  });

  it('when a shared piece is asked for, then its cover, title, owner and description come first, its text as written; a private piece has none', async () => {
    const owner = await createMember({ username: 'rosa_lens' });
    const piece = await createPiece(owner, { title: 'Rain $& <Shine>' });
    const { slug } = (await ContentModel.findById(piece.id).lean())!;
    const { firstPaint } = await page(`/rosa_lens-${slug}`);
    expect(headings(firstPaint, 1)).toEqual(['Rain $&#38; &#60;Shine&#62;']);
    expect(firstPaint).toMatch(/<img class="kn-first-paint__cover" src="\/files\/[^"]+" alt="Rain \$&#38; &#60;Shine&#62;" fetchpriority="high">/);
    // The factory's pieces carry no owner name: the username stands for it, as in the link preview.
    expect(firstPaint).toContain('by <a href="/rosa_lens">rosa lens</a>');
    expect(firstPaint).toContain('<p>About Rain $&#38; &#60;Shine&#62;</p>');

    await ContentModel.updateOne({ _id: new Types.ObjectId(piece.id) }, { $set: { listed: false, 'setting.public': false, 'setting.private': true } });
    const hidden = await page(`/rosa_lens-${slug}`);
    expect(hidden.firstPaint).toBe('');
    expect(hidden.html).not.toContain('Rain');
  });

  it('when Explore or a profile is asked for, then their first pieces come first as cards; never a private piece; Explore with a query has none', async () => {
    const owner = await createMember({ username: 'ines_draws' });
    const shown = await createPiece(owner, { title: 'Open Sky', type: 'art' });
    const secret = await createPiece(owner, { title: 'Secret Sketch', type: 'art' });
    await ContentModel.updateOne({ _id: new Types.ObjectId(secret.id) }, { $set: { listed: false, 'setting.public': false, 'setting.private': true } });

    const profile = (await page('/ines_draws', PHONE)).firstPaint;
    expect(headings(profile, 1)).toEqual(['Test Member']);
    expect(headings(profile, 3).join()).toContain('Open Sky');
    expect(profile).not.toContain('Secret Sketch');
    expect(profile).toContain('<a class="kn-card__owner" href="/ines_draws">ines draws</a>');
    expect(profile).toMatch(/<img src="[^"]+" srcset="[^"]+ 240w, [^"]+ 640w" sizes="[^"]+" alt="" width="640" height="640" fetchpriority="high">/);
    expect(headings((await page('/ines_draws/music')).firstPaint, 3)).toEqual([]);

    const explore = (await page('/explore')).firstPaint;
    expect(headings(explore, 1)).toEqual(['Explore']);
    expect(explore).toContain('<ul class="kn-grid" aria-label="Featured pieces">');
    expect(explore).not.toContain('Secret Sketch');
    expect(shown.title).toBe('Open Sky');
    expect((await page('/explore?tab=new')).firstPaint).toBe('');
  });

  it('when a screen of the app is asked for, then it has no first paint', async () => {
    for (const path of ['/wallet', '/pricing', '/no/such/page']) expect((await page(path)).firstPaint).toBe('');
  });
});

describe('the scripts a first-painted page announces', () => {
  it('when a page has a first paint, then the landing page’s module preloads are left out and its stylesheets kept; other screens keep both', async () => {
    const clientDir = mkdtempSync(path.join(os.tmpdir(), 'knack-client-'));
    const head = '<link rel="modulepreload" crossorigin href="/assets/vendor-react.js">\n<link rel="stylesheet" crossorigin href="/assets/main.css">';
    writeFileSync(path.join(clientDir, 'index.html'), `<!doctype html><html><head><title>Knack</title>${head}</head><body><div id="root"></div></body></html>`);
    try {
      const site = createTestApp({ config: { clientDir } });
      const landing = (await request(site).get('/').expect(200)).text;
      expect(landing).not.toContain('modulepreload');
      expect(landing).toContain('<link rel="stylesheet" crossorigin href="/assets/main.css">');
      expect(landing).toContain('<div id="kn-first-paint"');
      expect((await request(site).get('/wallet').expect(200)).text).toContain(head);
    } finally {
      rmSync(clientDir, { recursive: true, force: true });
    }
  });
});

describe('the phone rule', () => {
  it('when the server and the app judge a user agent, then they agree', () => {
    const agents = [
      PHONE,
      DESKTOP,
      TABLET,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148',
      'Opera/9.80 (J2ME/MIDP; Opera Mini/9.80)',
      '',
    ];
    expect(agents.map(isPhoneUserAgent)).toEqual(agents.map(appIsPhoneUserAgent));
    expect(agents.map(isPhoneUserAgent)).toEqual([true, false, false, true, true, false]);
  });
});
