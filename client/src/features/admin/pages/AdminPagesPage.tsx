import { useEffect, useState } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Segmented from 'antd/es/segmented';
import Skeleton from 'antd/es/skeleton';
import Tag from 'antd/es/tag';
import FileTextOutlined from '@ant-design/icons/es/icons/FileTextOutlined';
import {
  useGetCmsPageSourceQuery,
  useListAllNativePostsQuery,
  usePreviewMarkdownMutation,
  useSaveNativePostMutation,
  useUpdateCmsPageMutation,
} from '../../../api/generated/endpoints';
import type { GetCmsPageSourceResult, ListAllNativePostsResult } from '../../../api/generated/operations';
import { PageHead } from '../../../components/PageHead';
import { useToastedCall } from '../../../lib/useToastedCall';
import '../admin.css';

type PageId = GetCmsPageSourceResult['page']['id'];
type PageSource = GetCmsPageSourceResult['page'];
type PostSource = ListAllNativePostsResult['posts'][number];
type Choice = PageId | 'blog';

const CHOICES: { label: string; value: Choice }[] = [
  { label: 'How It Works', value: 'become' },
  { label: 'Earn', value: 'earning' },
  { label: 'User Guide', value: 'user-guide' },
  { label: 'Blog', value: 'blog' },
];
/** Where each page's sections are read, for the link beside each section. */
const PAGE_PATHS: Record<PageId, string> = { become: '/become', earning: '/earning', 'user-guide': '/user-guide' };
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const PREVIEW_DELAY_MS = 400;

/**
 * Markdown with its preview beside it (under it on a phone). The preview is the server's rendering, the same sanitised
 * HTML visitors get, asked for a moment after the typing stops.
 */
function MarkdownField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const [preview, { data, isError }] = usePreviewMarkdownMutation();
  useEffect(() => {
    const timer = setTimeout(() => void preview({ body: { markdown: value }, quiet: 'the preview says it could not render' }), PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [value, preview]);
  return (
    <div className="kn-cms-editor__markdown">
      <label className="kn-cms-editor__field">
        <span>{label} (Markdown)</span>
        <Input.TextArea
          aria-label={`${label} (Markdown)`}
          value={value}
          autoSize={{ minRows: 8, maxRows: 30 }}
          maxLength={100_000}
          onChange={(event) => onChange(event.target.value)}
        />
      </label>
      <div className="kn-cms-editor__preview" aria-label={`${label}: preview`} role="region">
        {isError ? (
          <p className="kn-cms-editor__muted">The preview could not be made. The text is kept.</p>
        ) : (
          // The server's sanitised rendering (server/modules/cms/cms.markdown.ts), as visitors get it.
          <div className="kn-article" dangerouslySetInnerHTML={{ __html: data?.html ?? '' }} />
        )}
      </div>
    </div>
  );
}

/** One content page: its title, description, and each section's title and Markdown, saved together. */
function PageEditor({ source }: { source: PageSource }) {
  const [update] = useUpdateCmsPageMutation();
  const { busy, run } = useToastedCall();
  const [draft, setDraft] = useState(source);
  useEffect(() => setDraft(source), [source]);
  const setSection = (index: number, change: Partial<PageSource['sections'][number]>) =>
    setDraft({ ...draft, sections: draft.sections.map((section, at) => (at === index ? { ...section, ...change } : section)) });
  const save = () =>
    run(
      async () =>
        (
          await update({
            path: { page: source.id },
            body: { title: draft.title, description: draft.description, sections: draft.sections.map(({ key, title, body }) => ({ key, title, body })) },
            quiet: 'the page toasts the outcome itself',
          }).unwrap()
        ).message,
    );
  return (
    <form
      className="kn-cms-editor"
      aria-label={`Edit ${source.title}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label className="kn-cms-editor__field">
        <span>Page title</span>
        <Input aria-label="Page title" value={draft.title} maxLength={200} onChange={(event) => setDraft({ ...draft, title: event.target.value })} />
      </label>
      <label className="kn-cms-editor__field">
        <span>Description (search engines and link previews show it)</span>
        <Input
          aria-label="Description"
          value={draft.description}
          maxLength={300}
          onChange={(event) => setDraft({ ...draft, description: event.target.value })}
        />
      </label>
      {draft.sections.map((section, index) => (
        <fieldset key={section.key} className="kn-cms-editor__section">
          <legend>
            Section <a href={`${PAGE_PATHS[source.id]}/${section.key}`} target="_blank" rel="noreferrer">{`${PAGE_PATHS[source.id]}/${section.key}`}</a>
          </legend>
          <label className="kn-cms-editor__field">
            <span>Section title</span>
            <Input
              aria-label={`Title of ${section.key}`}
              value={section.title}
              maxLength={200}
              onChange={(event) => setSection(index, { title: event.target.value })}
            />
          </label>
          <MarkdownField label={section.title || section.key} value={section.body} onChange={(body) => setSection(index, { body })} />
        </fieldset>
      ))}
      <div className="kn-cms-editor__actions">
        <Button type="primary" htmlType="submit" loading={busy}>
          Save page
        </Button>
        <span className="kn-cms-editor__muted">{`Last saved ${new Date(source.updatedAt).toLocaleString()}`}</span>
      </div>
    </form>
  );
}

function PageSection({ page }: { page: PageId }) {
  const { data, isError, refetch } = useGetCmsPageSourceQuery({ path: { page } });
  if (isError && !data)
    return (
      <p role="alert">
        The page could not be loaded. <Button onClick={() => void refetch()}>Retry</Button>
      </p>
    );
  return data ? <PageEditor source={data.page} /> : <Skeleton active paragraph={{ rows: 8 }} />;
}

const EMPTY_POST = { slug: '', title: '', excerpt: '', body: '', status: 'draft' as const };

/** A post's form: a new one asks for its address (slug); an existing one keeps it. */
function PostEditor({ post, onDone }: { post: PostSource | null; onDone: () => void }) {
  const [save] = useSaveNativePostMutation();
  const { busy, run } = useToastedCall();
  const [draft, setDraft] = useState<Omit<PostSource, 'publishedAt' | 'updatedAt'>>(post ?? EMPTY_POST);
  const [slugError, setSlugError] = useState<string | null>(null);
  const send = async (status: 'draft' | 'published') => {
    if (!SLUG.test(draft.slug)) {
      setSlugError('The address is lower-case words and digits joined by hyphens, like "spring-news".');
      return;
    }
    const done = await run(
      async () =>
        (
          await save({
            path: { slug: draft.slug },
            body: { title: draft.title, excerpt: draft.excerpt, body: draft.body, status },
            quiet: 'the form toasts the outcome itself',
          }).unwrap()
        ).message,
    );
    if (done) onDone();
  };
  return (
    <form className="kn-cms-editor" aria-label={post ? `Edit ${post.title}` : 'New post'} onSubmit={(event) => event.preventDefault()}>
      <label className="kn-cms-editor__field">
        <span>Address: /blog/…</span>
        <Input
          aria-label="Address"
          value={draft.slug}
          disabled={Boolean(post)}
          maxLength={80}
          status={slugError ? 'error' : undefined}
          onChange={(event) => {
            setDraft({ ...draft, slug: event.target.value.trim().toLowerCase() });
            setSlugError(null);
          }}
        />
      </label>
      {slugError ? (
        <p className="kn-cms-editor__error" role="alert">
          {slugError}
        </p>
      ) : null}
      <label className="kn-cms-editor__field">
        <span>Title</span>
        <Input aria-label="Title" value={draft.title} maxLength={200} onChange={(event) => setDraft({ ...draft, title: event.target.value })} />
      </label>
      <label className="kn-cms-editor__field">
        <span>Excerpt (the list and link previews show it)</span>
        <Input.TextArea
          aria-label="Excerpt"
          value={draft.excerpt}
          maxLength={1000}
          autoSize={{ minRows: 2 }}
          onChange={(event) => setDraft({ ...draft, excerpt: event.target.value })}
        />
      </label>
      <MarkdownField label="Post" value={draft.body} onChange={(body) => setDraft({ ...draft, body })} />
      <div className="kn-cms-editor__actions">
        <Button type="primary" loading={busy} onClick={() => void send('published')}>
          {post?.status === 'published' ? 'Save' : 'Publish'}
        </Button>
        <Button loading={busy} onClick={() => void send('draft')}>
          {post?.status === 'published' ? 'Back to draft' : 'Save draft'}
        </Button>
        <Button type="link" onClick={onDone}>
          Close
        </Button>
      </div>
    </form>
  );
}

function BlogSection() {
  const { data, isError, refetch } = useListAllNativePostsQuery({});
  const [editing, setEditing] = useState<PostSource | 'new' | null>(null);
  if (editing) return <PostEditor key={editing === 'new' ? 'new' : editing.slug} post={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />;
  if (isError && !data)
    return (
      <p role="alert">
        The posts could not be loaded. <Button onClick={() => void refetch()}>Retry</Button>
      </p>
    );
  if (!data) return <Skeleton active paragraph={{ rows: 6 }} />;
  return (
    <div className="kn-cms-editor">
      <div>
        <Button type="primary" onClick={() => setEditing('new')}>
          New post
        </Button>
      </div>
      <ul className="kn-cms-editor__posts" aria-label="Posts">
        {data.posts.map((post) => (
          <li key={post.slug}>
            <button type="button" className="kn-cms-editor__post" onClick={() => setEditing(post)}>
              <strong>{post.title}</strong>
              <span className="kn-cms-editor__muted">{`/blog/${post.slug}`}</span>
            </button>
            <Tag color={post.status === 'published' ? 'green' : 'default'}>{post.status === 'published' ? 'Published' : 'Draft'}</Tag>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The admins' pages: How It Works, Earn and the User Guide, and the blog, written in Markdown with a preview. What
 * visitors see is rendered and sanitised on the server; every save is recorded in the audit log.
 */
export default function AdminPagesPage() {
  const [choice, setChoice] = useState<Choice>('become');
  return (
    <div className="kn-admin kn-cms-admin">
      <PageHead icon={<FileTextOutlined aria-hidden />} title="Pages" sub="The content pages and the blog, in Markdown. Visitors see a saved change at once." />
      <Segmented<Choice> aria-label="Page" options={CHOICES} value={choice} onChange={setChoice} />
      {choice === 'blog' ? <BlogSection /> : <PageSection key={choice} page={choice} />}
    </div>
  );
}
