/**
 * The content pages and the blog as a visitor sees them: How It Works with every part at `/become/all` and one part
 * at `/become/creators`, its tabs as links with the current one marked; an unknown part's address replaced by the
 * page's default; a link in the text followed within the app; 'STRAPI Server Not found' with Try again when the CMS
 * fails; the blog's list and a post, and a missing post. The admins' Pages section saves a page's sections and
 * previews the Markdown through the server. The generated operations are mocked; the store, router and antd are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  getCmsPage,
  getCmsPageSource,
  getNativePost,
  getPageMeta,
  listNativePosts,
  previewMarkdown,
  updateCmsPage,
} from '../../client/src/api/generated/operations';
import { defaultPageMeta } from '../../client/src/features/cms';
import { ApiError } from '../../client/src/api/http';
import { mockPublicCalls, renderApp } from './auth-app';
import { makeAdmin } from './auth-fixtures';
import { path, toastTexts } from './profile-fixtures';
import { renderAsMember } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

const BECOME = {
  id: 'become' as const,
  title: 'How Knack works',
  description: 'Listeners, creators and supporters.',
  updatedAt: '2026-11-20T10:00:00.000Z',
  sections: [
    { key: 'listeners', title: 'For listeners and viewers', html: '<p>Knack is free to explore.</p>\n' },
    { key: 'creators', title: 'For creators', html: '<p>Read <a href="/earning/normal">how earnings work</a>.</p>\n' },
    { key: 'supporters', title: 'For supporters', html: '<p>Support a piece.</p>\n' },
  ],
};
const EARNING = {
  ...BECOME,
  id: 'earning' as const,
  title: 'Earn with Knack',
  sections: [
    { key: 'normal', title: 'How earnings work', html: '<h2>A worked example</h2>\n' },
    { key: 'faq', title: 'Questions and answers', html: '<h3>When am I paid?</h3>\n' },
  ],
};

beforeEach(() => {
  mockPublicCalls();
  jest
    .mocked(getCmsPage)
    .mockReset()
    .mockImplementation(async ({ path: { page } }) => ({ page: page === 'earning' ? EARNING : BECOME }));
});

const sectionHeadings = () => screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);

describe('the content pages', () => {
  it('when a visitor opens /become/all, then every part shows under its heading, and a tab shows one part at its own address', async () => {
    renderApp('/become/all');
    await screen.findByRole('heading', { level: 1, name: 'How Knack works' });
    expect(sectionHeadings()).toEqual(expect.arrayContaining(['For listeners and viewers', 'For creators', 'For supporters']));
    const tabs = within(screen.getByRole('navigation', { name: 'How Knack works: sections' }));
    expect(tabs.getByRole('link', { name: 'Everyone' }).getAttribute('aria-current')).toBe('page');

    fireEvent.click(tabs.getByRole('link', { name: 'For creators' }));
    await waitFor(() => expect(path()).toBe('/become/creators'));
    await waitFor(() => expect(screen.queryByRole('heading', { level: 2, name: 'For supporters' })).toBeNull());
    expect(tabs.getByRole('link', { name: 'For creators' }).getAttribute('aria-current')).toBe('page');

    // A link of this site in the text moves within the app.
    fireEvent.click(screen.getByRole('link', { name: 'how earnings work' }));
    await waitFor(() => expect(path()).toBe('/earning/normal'));
    await screen.findByRole('heading', { level: 1, name: 'Earn with Knack' });
    expect(getCmsPage).toHaveBeenCalledWith({ path: { page: 'earning' } }, expect.anything());
  });

  it('when the address names a part the page does not have, then it is replaced by the page’s default', async () => {
    renderApp('/earning/nothing-here');
    await screen.findByRole('heading', { level: 2, name: 'How earnings work' });
    await waitFor(() => expect(path()).toBe('/earning/normal'));
  });

  it('when the CMS fails, then the page says so and Try again asks again', async () => {
    jest.mocked(getCmsPage).mockRejectedValueOnce(new ApiError('Something went wrong', 500, 'internal'));
    renderApp('/become/creators');
    const failed = await screen.findByRole('alert');
    expect(failed.textContent).toContain('STRAPI Server Not found');
    fireEvent.click(within(failed).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { level: 2, name: 'For creators' });
  });
});

describe('the server’s first paint', () => {
  it('when the page loads its content, then the first paint stays until the content is there, then gives way to the app', async () => {
    const firstPaint = document.createElement('div');
    firstPaint.id = 'kn-first-paint';
    document.body.prepend(firstPaint);
    let answer: () => void = () => undefined;
    jest.mocked(getCmsPage).mockImplementationOnce(() => new Promise((resolve) => (answer = () => resolve({ page: BECOME }))));
    renderApp('/become/all');
    await waitFor(() => expect(document.querySelector('#kn-main [aria-busy="true"]')).not.toBeNull());
    expect(document.getElementById('kn-first-paint')).toBe(firstPaint);
    answer();
    await screen.findByRole('heading', { level: 1, name: 'How Knack works' });
    await waitFor(() => expect(document.getElementById('kn-first-paint')).toBeNull());
  });

  it('when the content does not come, then the first paint gives way to the page’s loading state after a moment', async () => {
    const firstPaint = document.createElement('div');
    firstPaint.id = 'kn-first-paint';
    document.body.prepend(firstPaint);
    jest.mocked(getCmsPage).mockImplementationOnce(() => new Promise(() => undefined));
    renderApp('/earning/faq');
    await waitFor(() => expect(document.querySelector('#kn-main [aria-busy="true"]')).not.toBeNull());
    await waitFor(() => expect(document.getElementById('kn-first-paint')).toBeNull(), { timeout: 3000 });
    expect(document.querySelector('#kn-main [aria-busy="true"]')).not.toBeNull();
  });
});

describe('the blog', () => {
  it('when a visitor opens the blog, then the posts are listed and a post opens with its title as the page’s', async () => {
    jest.mocked(listNativePosts).mockResolvedValue({
      posts: [{ slug: 'how-knack-works', title: 'How Knack works', excerpt: 'Every play pays.', publishedAt: '2026-11-20T10:00:00.000Z' }],
      nextCursor: null,
    });
    jest.mocked(getNativePost).mockResolvedValue({
      post: {
        id: '64d000000000000000000001',
        slug: 'how-knack-works',
        title: 'How Knack works',
        excerpt: 'Every play pays.',
        body: '## Get paid',
        html: '<h2>Get paid</h2>\n',
        publishedAt: '2026-11-20T10:00:00.000Z',
      },
    });
    // The blog list's metadata answers only once the post is read: it must not take the post's title away.
    let answerBlogMeta: () => void = () => undefined;
    jest
      .mocked(getPageMeta)
      .mockImplementation(
        () => new Promise((resolve) => (answerBlogMeta = () => resolve({ pageMeta: { ...defaultPageMeta('blog'), title: 'The blog | Knack' } }))),
      );
    const { store } = renderApp('/blog');
    const posts = within(await screen.findByRole('list', { name: 'Posts' }));
    expect(await posts.findByText('Every play pays.')).toBeTruthy();
    await waitFor(() => expect(getPageMeta).toHaveBeenCalledWith({ path: { page: 'blog' } }, expect.anything()));
    fireEvent.click(posts.getByRole('link', { name: 'How Knack works' }));
    await screen.findByRole('heading', { level: 2, name: 'Get paid' });
    expect(path()).toBe('/blog/how-knack-works');
    await waitFor(() => expect(document.title).toBe('How Knack works | Knack'));
    answerBlogMeta();
    const blogMetaRead = () => Object.values(store.getState().api.queries).some((read) => read?.endpointName === 'getPageMeta' && read.status === 'fulfilled');
    await waitFor(() => expect(blogMetaRead()).toBe(true));
    expect(document.title).toBe('How Knack works | Knack');
    expect(document.head.querySelector('meta[property="og:description"]')?.getAttribute('content')).toBe('Every play pays.');
  });

  it('when the post does not exist, then the page says so and leads back to the blog', async () => {
    jest.mocked(getNativePost).mockRejectedValue(new ApiError('No post "gone"', 404, 'not_found'));
    renderApp('/blog/gone');
    await screen.findByRole('heading', { level: 1, name: 'This post does not exist.' });
    expect(screen.getByRole('link', { name: '← All posts' }).getAttribute('href')).toBe('/blog');
  });
});

describe('the admins’ Pages section', () => {
  it('when an admin changes a section, then its preview comes from the server and Save sends every section in order', async () => {
    jest.mocked(getCmsPageSource).mockResolvedValue({
      page: { ...BECOME, sections: BECOME.sections.map(({ key, title }) => ({ key, title, body: `About ${key}` })) },
    });
    jest.mocked(previewMarkdown).mockImplementation(async ({ body }) => ({ html: `<p>${body.markdown.replace(/\*\*(.+)\*\*/, '<strong>$1</strong>')}</p>` }));
    jest.mocked(updateCmsPage).mockImplementation(async ({ body }) => ({
      message: 'The page is saved. Visitors see it now.',
      page: { ...body, id: 'become', updatedAt: '2026-11-21T10:00:00.000Z' },
    }));
    await renderAsMember('/admin/pages', makeAdmin());
    const editor = within(await screen.findByRole('form', { name: 'Edit How Knack works' }));
    fireEvent.change(editor.getByLabelText('For creators (Markdown)'), { target: { value: 'List **now**' } });
    const preview = editor.getByRole('region', { name: 'For creators: preview' });
    await waitFor(() => expect(preview.innerHTML).toBe('<div class="kn-article"><p>List <strong>now</strong></p></div>'));
    expect(previewMarkdown).toHaveBeenLastCalledWith({ body: { markdown: 'List **now**' } }, expect.anything());

    fireEvent.click(editor.getByRole('button', { name: 'Save page' }));
    await waitFor(() => expect(toastTexts()).toContain('The page is saved. Visitors see it now.'));
    expect(updateCmsPage).toHaveBeenCalledWith(
      {
        path: { page: 'become' },
        body: {
          title: 'How Knack works',
          description: 'Listeners, creators and supporters.',
          sections: [
            { key: 'listeners', title: 'For listeners and viewers', body: 'About listeners' },
            { key: 'creators', title: 'For creators', body: 'List **now**' },
            { key: 'supporters', title: 'For supporters', body: 'About supporters' },
          ],
        },
      },
      expect.anything(),
    );
  });
});
