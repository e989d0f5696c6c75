/**
 * Footer: the CMS columns SUPPORT, SOCIAL, TRENDING, MOST VIEWED, and the fixed parts, which
 * render even when the CMS call fails. The generated operations are mocked (no network).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { getPageUi } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import { Footer, FOOTER_TAGLINE } from '../../client/src/layouts/front';
import { footerFixture } from './fixtures';
import { renderWithStore } from './render';

jest.mock('../../client/src/api/generated/operations');
const getPageUiMock = jest.mocked(getPageUi);

function expectFixedParts() {
  const footer = screen.getByRole('contentinfo');
  expect(within(footer).getByText(FOOTER_TAGLINE)).toBeTruthy();
  expect(FOOTER_TAGLINE).toMatch(/K stands for knack/);
  expect(footer.textContent).toContain('Customer service:');
  expect(within(footer).getByRole('link', { name: 'support@knack.example' }).getAttribute('href')).toBe('mailto:support@knack.example');
  expect(within(footer).getByText('© 2026 Knack')).toBeTruthy();
  expect(within(footer).getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy-policy.html');
  expect(within(footer).getByRole('link', { name: 'TOS' }).getAttribute('href')).toBe('/terms-of-use.html');
  expect(within(footer).getByRole('link', { name: 'Help' })).toBeTruthy();
  const social = within(footer).getByRole('list', { name: 'Knack on social media' });
  expect(within(social).getAllByRole('link').length).toBeGreaterThan(0);
  return footer;
}

describe('Footer', () => {
  beforeEach(() => getPageUiMock.mockReset());

  it('when the CMS answers, then the four columns show in their fixed order with their entries', async () => {
    getPageUiMock.mockResolvedValue(footerFixture);
    renderWithStore(<Footer />);

    expect(await screen.findByRole('link', { name: 'FAQ' })).toBeTruthy();
    expect(getPageUiMock).toHaveBeenCalledWith({ path: { name: 'footer' } }, expect.anything());
    const footer = expectFixedParts();
    const columns = within(footer)
      .getAllByRole('heading', { level: 2 })
      .map((heading) => heading.textContent);
    expect(columns).toEqual(['SUPPORT', 'SOCIAL', 'TRENDING', 'MOST VIEWED']);

    const trending = within(footer).getByRole('navigation', { name: 'TRENDING' });
    expect(within(trending).getByRole('link', { name: 'Hip Hop' }).getAttribute('href')).toBe('/explore/hip-hop');
    expect(within(footer).getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('mailto:support@knack.example');
  });

  it('when an entry links outside Knack, then it opens in a new tab with rel noopener', async () => {
    getPageUiMock.mockResolvedValue(footerFixture);
    renderWithStore(<Footer />);
    const socialColumn = await screen.findByRole('navigation', { name: 'SOCIAL' });
    const twitter = within(socialColumn).getByRole('link', { name: 'Twitter' });
    expect(twitter.getAttribute('href')).toBe('https://twitter.com/knack');
    expect(twitter.getAttribute('target')).toBe('_blank');
    expect(twitter.getAttribute('rel')).toContain('noopener');
    // The social icons follow the CMS SOCIAL column.
    const icons = screen.getByRole('list', { name: 'Knack on social media' });
    expect(within(icons).getByRole('link', { name: 'Instagram' }).getAttribute('href')).toBe('https://instagram.com/knack');
  });

  it('when the CMS call fails, then the fixed parts still render and no columns', async () => {
    getPageUiMock.mockRejectedValue(new ApiError('STRAPI Server Not found', 502, 'cms_unavailable'));
    renderWithStore(<Footer />);
    const footer = screen.getByRole('contentinfo');
    expect(footer.querySelector('[aria-busy="true"]')).not.toBeNull(); // loading placeholders first
    await waitFor(() => expect(footer.querySelector('[aria-busy="true"]')).toBeNull());
    expect(getPageUiMock).toHaveBeenCalledTimes(1);
    expect(within(footer).queryByRole('heading', { level: 2 })).toBeNull();
    expectFixedParts();
    // Without a SOCIAL column the default social links show.
    const icons = screen.getByRole('list', { name: 'Knack on social media' });
    expect(within(icons).getAllByRole('link').length).toBe(4);
  });
});
