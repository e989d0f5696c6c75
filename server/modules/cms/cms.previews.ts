/**
 * The link preview of a blog post (`/blog/{slug}`): the Open Graph and Twitter tags a chat app or social site reads
 * from the page's HTML, which it gets without running the app. Only a published post is described.
 */
import { NativePostModel, type NativePostDoc } from './cms.model';

/** A post's address: its slug is lower-case words joined by hyphens (the contract's Slug). */
const POST_LINK = /^\/blog\/([a-z0-9]+(?:-[a-z0-9]+)*)\/?$/;

export interface BlogPostPreview {
  title: string;
  description: string;
  url: string;
  type: 'article';
}

/** The preview of the post at `pathname`, or null when the path is not a published post's. */
export async function blogPostPreview(pathname: string, publicUrl: string, now = new Date()): Promise<BlogPostPreview | null> {
  const slug = POST_LINK.exec(pathname)?.[1];
  if (!slug) return null;
  const post = await NativePostModel.findOne({ slug, status: 'published' }, { title: 1, excerpt: 1, publishedAt: 1 }).lean<NativePostDoc>();
  if (!post || !post.publishedAt || post.publishedAt > now) return null;
  return { title: `${post.title} | Knack`, description: post.excerpt || post.title, url: `${publicUrl}/blog/${slug}`, type: 'article' };
}
