import Button from 'antd/es/button';
import {
  useConnectInstagramMutation,
  useDisconnectInstagramMutation,
  useGetInstagramConnectionQuery,
  usePostToInstagramMutation,
} from '../../../api/generated/endpoints';
import { notify } from '../../../components/notify';
import { leavePage } from '../../../lib/leavePage';
import type { SharedPiece } from '../share.links';

/** What a member is told when the server posts nowhere: they can still paste the link themselves. */
export const INSTAGRAM_HINT = 'Instagram has no share link on the web: paste the copied URL into your post, story or bio.';

/**
 * Posting the piece's picture to the member's Instagram professional account: connect it once (Instagram's consent
 * page, then back here), then post with the title, the artist and the link as the caption. On a server with no
 * Instagram app, it says what posting needs; the link has been copied meanwhile.
 */
export function InstagramShare({ piece, url }: { piece: SharedPiece; url: string }) {
  const connection = useGetInstagramConnectionQuery();
  const [connect, { isLoading: connecting }] = useConnectInstagramMutation();
  const [disconnect, { isLoading: disconnecting }] = useDisconnectInstagramMutation();
  const [post, { isLoading: posting, data: posted }] = usePostToInstagramMutation();
  const state = connection.data;

  const startConnecting = async () => {
    try {
      const { authorizeUrl } = await connect({ body: { returnTo: `${window.location.pathname}${window.location.search}` } }).unwrap();
      leavePage.go(authorizeUrl);
    } catch {
      // The one error toast has shown the server's message.
    }
  };

  const postPiece = async () => {
    try {
      notify('success', (await post({ body: { contentId: piece.id } }).unwrap()).message);
    } catch {
      // The one error toast has shown the server's message (not public, posted a moment ago, connection ended…).
    }
  };

  if (!state) return <p className="kn-share__instagram kn-share__note">{connection.isError ? INSTAGRAM_HINT : 'Checking your Instagram connection…'}</p>;
  if (!state.configured) {
    return (
      <div className="kn-share__instagram" role="status">
        <p className="kn-share__note">{state.message}</p>
        <p className="kn-share__note">The link is copied: {INSTAGRAM_HINT}</p>
      </div>
    );
  }
  if (!state.connected) {
    return (
      <div className="kn-share__instagram">
        <p className="kn-share__note">
          Connect an Instagram professional account (Business or Creator) to post this picture with its link. You come back here after Instagram asks you.
        </p>
        <Button type="primary" loading={connecting} onClick={() => void startConnecting()}>
          Connect Instagram
        </Button>
      </div>
    );
  }
  return (
    <div className="kn-share__instagram">
      <p className="kn-share__note">
        Post to <strong>@{state.username}</strong> with this caption:
      </p>
      <blockquote className="kn-share__caption">
        {piece.title} by {piece.ownerName || piece.ownerUsername} on Knack
        <br />
        {url}
      </blockquote>
      <div className="kn-share__instagram-actions">
        <Button type="primary" loading={posting} onClick={() => void postPiece()}>
          Post to Instagram
        </Button>
        <Button
          type="link"
          loading={disconnecting}
          onClick={() =>
            void disconnect()
              .unwrap()
              .catch(() => undefined)
          }
        >
          Disconnect @{state.username}
        </Button>
      </div>
      {posted?.permalink ? (
        <p className="kn-share__note">
          <a href={posted.permalink} target="_blank" rel="noopener noreferrer">
            See the post on Instagram
          </a>
        </p>
      ) : null}
    </div>
  );
}
