import type { ReactNode } from 'react';
import DiscordFilled from '@ant-design/icons/es/icons/DiscordFilled';
import FacebookFilled from '@ant-design/icons/es/icons/FacebookFilled';
import InstagramOutlined from '@ant-design/icons/es/icons/InstagramOutlined';
import LinkedinFilled from '@ant-design/icons/es/icons/LinkedinFilled';
import PinterestOutlined from '@ant-design/icons/es/icons/PinterestOutlined';
import TikTokOutlined from '@ant-design/icons/es/icons/TikTokOutlined';
import XOutlined from '@ant-design/icons/es/icons/XOutlined';
import YoutubeFilled from '@ant-design/icons/es/icons/YoutubeFilled';
import LinkOutlined from '@ant-design/icons/es/icons/LinkOutlined';
import type { PageUiEntry } from '../../features/cms';

export interface SocialLink {
  name: string;
  link: string;
  icon: ReactNode;
}

/** antd has no Tumblr icon: the 't' mark, sized and coloured like an antd icon. */
function TumblrIcon() {
  return (
    <span role="img" aria-hidden="true" className="anticon">
      <svg viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" focusable="false">
        <path d="M14.56 21.5c-3.15 0-5.02-1.6-5.02-4.73v-6.2H7.1V7.72c2.5-.83 3.53-2.86 3.68-5.22h2.92v4.6h3.4v3.47h-3.4v5.3c0 1.55.78 2.09 2.03 2.09h1.79v3.54h-2.96z" />
      </svg>
    </span>
  );
}

const ICONS: [RegExp, ReactNode][] = [
  [/twitter|(^|\W)x(\W|$)|x\.com/i, <XOutlined key="x" />],
  [/facebook/i, <FacebookFilled key="facebook" />],
  [/instagram/i, <InstagramOutlined key="instagram" />],
  [/youtube/i, <YoutubeFilled key="youtube" />],
  [/tiktok/i, <TikTokOutlined key="tiktok" />],
  [/linkedin/i, <LinkedinFilled key="linkedin" />],
  [/discord/i, <DiscordFilled key="discord" />],
  [/pinterest/i, <PinterestOutlined key="pinterest" />],
  [/tumblr/i, <TumblrIcon key="tumblr" />],
];

export function socialIcon(entry: PageUiEntry): ReactNode {
  const match = ICONS.find(([pattern]) => pattern.test(entry.name) || pattern.test(entry.link));
  return match ? match[1] : <LinkOutlined />;
}

/** Knack's own social accounts, shown when the CMS footer has no SOCIAL column. */
export const DEFAULT_SOCIAL: PageUiEntry[] = [
  { name: 'X (Twitter)', link: 'https://x.com/knack' },
  { name: 'Instagram', link: 'https://www.instagram.com/knack' },
  { name: 'Facebook', link: 'https://www.facebook.com/knack' },
  { name: 'YouTube', link: 'https://www.youtube.com/@knack' },
];

export function socialLinks(entries: PageUiEntry[] | undefined): SocialLink[] {
  const source = entries?.length ? entries : DEFAULT_SOCIAL;
  return source.map((entry) => ({ ...entry, icon: socialIcon(entry) }));
}
