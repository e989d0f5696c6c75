import MailOutlined from '@ant-design/icons/es/icons/MailOutlined';
import { BRAND, PATHS } from '../../lib/constants';
import { Logo } from '../../components/Logo';
import { FOOTER_COLUMNS, useFooter, type PageUiSection } from '../../features/cms';
import { FooterLink } from './FooterLink';
import { socialLinks } from './socialLinks';

export const FOOTER_TAGLINE = 'Knack — the K stands for knack: the small amount a creator earns every time their work is played or viewed.';

/** The CMS columns; placeholders while the call runs. */
function FooterColumns({ sections, loading }: { sections: PageUiSection[]; loading: boolean }) {
  return (
    <div className="kn-footer__columns" aria-busy={loading || undefined}>
      {loading
        ? FOOTER_COLUMNS.map((title) => (
            <div key={title} className="kn-footer__column">
              <h2 className="kn-footer__heading">{title}</h2>
              <span className="kn-footer__placeholder" />
              <span className="kn-footer__placeholder" />
              <span className="kn-footer__placeholder" />
            </div>
          ))
        : sections.map((section) => (
            <nav key={section.title} className="kn-footer__column" aria-label={section.title}>
              <h2 className="kn-footer__heading">{section.title}</h2>
              <ul>
                {section.entries.map((entry) => (
                  <li key={`${entry.name}-${entry.link}`}>
                    <FooterLink link={entry.link}>{entry.name}</FooterLink>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
    </div>
  );
}

/**
 * The front footer: the CMS columns SUPPORT, SOCIAL, TRENDING, MOST VIEWED, and the fixed parts
 * (tagline, customer service, copyright, Privacy Policy, TOS, Help, social links), which render even when
 * the CMS call fails.
 */
export function Footer() {
  const { sections, loading } = useFooter();
  const solo = !loading && sections.length === 0; // the CMS failed or is empty: the fixed parts only
  const social = socialLinks(sections.find((section) => section.title.toUpperCase() === 'SOCIAL')?.entries);
  return (
    <footer className="kn-footer">
      <div className={solo ? 'kn-footer__inner kn-footer__inner--solo' : 'kn-footer__inner'}>
        <div className="kn-footer__brand">
          <Logo inverse />
          <p className="kn-footer__tagline">{FOOTER_TAGLINE}</p>
          <p className="kn-footer__service">
            <MailOutlined aria-hidden /> Customer service: <a href={`mailto:${BRAND.supportEmail}`}>{BRAND.supportEmail}</a>
          </p>
          <ul className="kn-footer__social" aria-label="Knack on social media">
            {social.map((entry) => (
              <li key={`${entry.name}-${entry.link}`}>
                <FooterLink link={entry.link} className="kn-footer__social-link" label={entry.name}>
                  {entry.icon}
                </FooterLink>
              </li>
            ))}
          </ul>
        </div>
        {solo ? null : <FooterColumns sections={sections} loading={loading} />}
      </div>
      <div className="kn-footer__bottom">
        <div className="kn-footer__bottom-inner">
          <span>© {BRAND.copyrightYear} Knack</span>
          <nav className="kn-footer__legal" aria-label="Legal">
            <a href={PATHS.privacy}>Privacy Policy</a>
            <a href={PATHS.terms}>TOS</a>
            <a href={`mailto:${BRAND.supportEmail}?subject=Help`}>Help</a>
          </nav>
        </div>
      </div>
    </footer>
  );
}
