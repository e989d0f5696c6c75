import { CmsContentPage } from '../components/CmsContentPage';

/** How It Works (`/become/{kind?}`): for listeners, creators and supporters; `/become/all` (and `/become`) shows every part. */
export default function BecomePage() {
  return <CmsContentPage page="become" base="/become" param="kind" allKey="all" allLabel="Everyone" />;
}
