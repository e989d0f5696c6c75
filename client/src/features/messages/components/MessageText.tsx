import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** Web addresses in a message: http(s) up to the next space, without the punctuation that usually ends a sentence. */
const ADDRESS = /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)'\]]/g;

/**
 * A message's text with its web addresses made links. An address on this site (such as the sale links Knack writes
 * to a bidder) opens inside the app; any other opens in a new tab, without telling that site where the reader came
 * from and without lending it our ranking. Nothing else in the text is read as markup.
 */
export function MessageText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const start = match.index ?? 0;
    if (start > at) parts.push(<Fragment key={`t${at}`}>{text.slice(at, start)}</Fragment>);
    parts.push(<Address key={`a${start}`} href={match[0]} />);
    at = start + match[0].length;
  }
  if (at < text.length) parts.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return <>{parts}</>;
}

function Address({ href }: { href: string }) {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return <>{href}</>;
  }
  if (url.origin === window.location.origin) return <Link to={`${url.pathname}${url.search}${url.hash}`}>{href}</Link>;
  return (
    <a href={url.href} target="_blank" rel="noopener noreferrer nofollow ugc">
      {href}
    </a>
  );
}
