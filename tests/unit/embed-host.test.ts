/**
 * The site an embed play or knack is counted under: the registrable domain of the framing page's address by the
 * public-suffix list, an IP address or localhost as they are, and Knack itself (null) for its own site or anything that
 * is not an http(s) address with a host name.
 */
import { embedHostOf, siteOfHost } from '../../server/lib/embed-host';

const KNACK = 'knack.example';

describe('embedHostOf', () => {
  it.each([
    ['https://blog.fans.example/2030/05/post?x=1#player', 'fans.example'],
    ['http://BLOG.Fans.Example:8080/', 'fans.example'],
    ['https://www.bbc.co.uk/news', 'bbc.co.uk'],
    ['https://news.example.co.uk/', 'example.co.uk'],
    // A private suffix on the list: each GitHub Pages site is a site of its own.
    ['https://ana.github.io/songs/', 'ana.github.io'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
    ['http://127.0.0.1:5173/', '127.0.0.1'],
    ['http://[::1]:8080/', '[::1]'],
    ['http://localhost:8080/page', 'localhost'],
  ])('when the page was %s, then the site is %s', (referrer, site) => {
    expect(embedHostOf(referrer, KNACK)).toBe(site);
  });

  it.each([
    ['no address', undefined],
    ['an empty address (withheld by the page)', ''],
    ['Knack itself', 'https://knack.example/ana-sea-song'],
    ['another host of Knack’s own site', 'https://www.knack.example/'],
    ['a script address', 'javascript:alert(1)'],
    ['a file', 'file:///home/ana/page.html'],
    ['a data address', 'data:text/html,<iframe>'],
    ['text that is no address', 'fans.example'],
    ['a single-label intranet name', 'http://wiki/page'],
    ['a bare public suffix', 'https://co.uk/'],
    ['an address longer than a referrer can be', `https://fans.example/${'x'.repeat(2048)}`],
  ])('when the page was %s, then it counts as Knack itself', (_what, referrer) => {
    expect(embedHostOf(referrer, KNACK)).toBeNull();
  });

  it('when Knack is reached at an address, then a page on that host, on any port, is Knack’s own', () => {
    expect(embedHostOf('http://127.0.0.1:4000/', '127.0.0.1')).toBeNull();
    expect(embedHostOf('http://localhost:4000/', '127.0.0.1')).toBe('localhost');
  });
});

describe('siteOfHost', () => {
  it('when a host name is given, then its registrable domain, an IP address as it is, or null for a name that is no site', () => {
    expect(siteOfHost('a.b.fans.example')).toBe('fans.example');
    expect(siteOfHost('203.0.113.9')).toBe('203.0.113.9');
    expect(siteOfHost('intranet')).toBeNull();
    expect(siteOfHost('not a host')).toBeNull();
  });
});
