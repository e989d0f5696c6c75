import { CmsContentPage } from '../components/CmsContentPage';

/** Earn with Knack (`/earning/{kind?}`): how earnings work (`normal`, the default) and the questions and answers (`faq`). */
export default function EarningPage() {
  return <CmsContentPage page="earning" base="/earning" param="kind" />;
}
