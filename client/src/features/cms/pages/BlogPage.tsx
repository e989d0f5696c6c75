import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useGetNativePostQuery, useListNativePostsInfiniteQuery } from '../../../api/generated/endpoints';
import type { ListNativePostsResult } from '../../../api/generated/operations';
import type { CachedError } from '../../../api/cache';
import { usePagedList } from '../../../api/pagedList';
import { Button } from '../../../components/button';
import { applyPageMeta } from '../applyPageMeta';
import { defaultPageMeta } from '../pageMeta.defaults';
import { CmsArticle } from '../components/CmsArticle';
import { CmsFailed } from '../components/CmsFailed';

type PostSummary = ListNativePostsResult['posts'][number];

const day = (at: string) => new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
const postsOf = (page: ListNativePostsResult) => page.posts.map((post) => ({ ...post, id: post.slug }));

/** The blog: the published posts, the newest first, 10 at a time. */
function PostList() {
  const list = usePagedList(useListNativePostsInfiniteQuery({ query: { limit: 10 } }), postsOf);
  return (
    <div className="kn-cms">
      <header className="kn-cms__head">
        <h1 className="kn-page-title">The Knack blog</h1>
        <p className="kn-page-sub">News from Knack, and how creators of music, art and photos get paid for every play and view.</p>
      </header>
      {list.error && !list.items.length ? <CmsFailed retry={list.retry} /> : null}
      {list.status === 'ready' && !list.items.length ? <p className="kn-cms__muted">No posts yet.</p> : null}
      <ol className="kn-blog__list" aria-label="Posts">
        {list.items.map((post: PostSummary & { id: string }) => (
          <li key={post.id} className="kn-blog__item">
            <h2 className="kn-blog__item-title">
              <Link to={`/blog/${post.slug}`}>{post.title}</Link>
            </h2>
            <time className="kn-cms__muted" dateTime={post.publishedAt}>
              {day(post.publishedAt)}
            </time>
            {post.excerpt ? <p>{post.excerpt}</p> : null}
          </li>
        ))}
      </ol>
      {list.hasMore ? (
        <Button loading={list.loadingMore} onClick={list.loadMore}>
          More posts
        </Button>
      ) : null}
    </div>
  );
}

/** One post, with its title and excerpt as the page's title and description (the server gives link previews the same). */
function Post({ slug }: { slug: string }) {
  const { data, error, refetch } = useGetNativePostQuery({ path: { slug } });
  const post = data?.post;
  useEffect(() => {
    if (!post) return;
    const base = defaultPageMeta('blog');
    const title = `${post.title} | Knack`;
    const description = post.excerpt || post.title;
    applyPageMeta({
      page: 'blog',
      title,
      meta: [{ property: 'description', content: description }],
      facebook: [
        ...base.facebook.filter((item) => !['og:title', 'og:description', 'og:type'].includes(item.property)),
        { property: 'og:type', content: 'article' },
        { property: 'og:title', content: title },
        { property: 'og:description', content: description },
      ],
      twitter: [
        { property: 'twitter:card', content: 'summary' },
        { property: 'twitter:title', content: title },
        { property: 'twitter:description', content: description },
      ],
    });
  }, [post]);

  const back = (
    <Link className="kn-back-link" to="/blog">
      ← All posts
    </Link>
  );
  if (error && !post) {
    const missing = (error as CachedError).status === 404;
    return (
      <div className="kn-cms">
        {back}
        {missing ? <h1 className="kn-page-title">This post does not exist.</h1> : <CmsFailed retry={() => void refetch()} />}
      </div>
    );
  }
  if (!post) return <div className="kn-cms kn-cms--loading" aria-busy="true" />;
  return (
    <article className="kn-cms">
      {back}
      <header className="kn-cms__head">
        <h1 className="kn-page-title">{post.title}</h1>
        <time className="kn-cms__muted" dateTime={post.publishedAt}>
          {day(post.publishedAt)}
        </time>
      </header>
      <CmsArticle html={post.html} />
    </article>
  );
}

/** `/blog` lists the posts; `/blog/{slug}` shows one. */
export default function BlogPage() {
  const { type } = useParams();
  return type ? <Post slug={type} /> : <PostList />;
}
