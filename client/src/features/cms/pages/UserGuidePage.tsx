import { CmsContentPage } from '../components/CmsContentPage';

/** The User Guide (`/user-guide/{tag?}`): introduction (the default), title box, showcase, menu and rules. */
export default function UserGuidePage() {
  return <CmsContentPage page="user-guide" base="/user-guide" param="tag" />;
}
