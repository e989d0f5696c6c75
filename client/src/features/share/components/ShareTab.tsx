import { useState, type ReactNode } from 'react';
import FacebookFilled from '@ant-design/icons/es/icons/FacebookFilled';
import InstagramOutlined from '@ant-design/icons/es/icons/InstagramOutlined';
import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import TwitterOutlined from '@ant-design/icons/es/icons/TwitterOutlined';
import { copyText } from '../../../components/copyText';
import { notify } from '../../../components/notify';
import { SHARE_SITES, shareIntent, shareUrlOf, type SharedPiece, type ShareSite } from '../share.links';
import { useAppSelector } from '../../../lib/storeHooks';
import { selectUser } from '../../auth';
import { CopyField } from './CopyField';
import { INSTAGRAM_HINT, InstagramShare } from './InstagramShare';
import { InviteForm } from './InviteForm';

/** antd has no Tumblr or Pinterest icon: their initials, in the sites' own colours (share.css). */
const ICONS: Record<ShareSite, ReactNode> = {
  twitter: <TwitterOutlined aria-hidden />,
  facebook: <FacebookFilled aria-hidden />,
  tumblr: <span aria-hidden data-glyph="t" />,
  pinterest: <span aria-hidden data-glyph="P" />,
  email: <MailOutlined aria-hidden />,
  instagram: <InstagramOutlined aria-hidden />,
};

/** Share tab: the sites' share pages, the copyable link, and an invite by email. */
export function ShareTab({ piece }: { piece: SharedPiece }) {
  const origin = window.location.origin;
  const url = shareUrlOf(origin, piece);
  const image = piece.coverPath ? new URL(piece.coverPath, origin).toString() : undefined;

  const signedIn = Boolean(useAppSelector(selectUser));
  const [instagramOpen, setInstagramOpen] = useState(false);

  /**
   * Instagram has no share page: the link is copied, and a member may post the picture to their own account
   * (a visitor is told to paste the link).
   */
  const shareToInstagram = async () => {
    const copied = await copyText(url);
    if (signedIn) setInstagramOpen(true);
    else if (copied) notify('info', INSTAGRAM_HINT);
  };

  return (
    <div className="kn-share__tab">
      <ul className="kn-share__sites" aria-label="Share on">
        {SHARE_SITES.map(({ site, label }) => {
          const href = shareIntent(site, url, piece, image);
          const className = `kn-share__site kn-share__site--${site}`;
          return (
            <li key={site}>
              {href ? (
                <a
                  className={className}
                  href={href}
                  target={site === 'email' ? undefined : '_blank'}
                  rel="noopener noreferrer"
                  aria-label={`Share on ${label}`}
                >
                  <span className="kn-share__icon">{ICONS[site]}</span>
                  <span className="kn-share__site-name">{label}</span>
                </a>
              ) : (
                <button
                  type="button"
                  className={className}
                  onClick={() => void shareToInstagram()}
                  aria-label={`Share on ${label}`}
                  aria-expanded={signedIn ? instagramOpen : undefined}
                >
                  <span className="kn-share__icon">{ICONS[site]}</span>
                  <span className="kn-share__site-name">{label}</span>
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {instagramOpen ? <InstagramShare piece={piece} url={url} /> : null}
      <CopyField label="Share link" value={url} />
      <InviteForm contentId={piece.id} />
    </div>
  );
}
