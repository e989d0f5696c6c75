import { useEffect, useMemo, useRef } from 'react';
import { NavLink, useNavigate, useParams } from 'react-router-dom';
import { useGetCmsPageQuery } from '../../../api/generated/endpoints';
import type { GetCmsPageResult } from '../../../api/generated/operations';
import { CmsArticle } from './CmsArticle';
import { CmsFailed } from './CmsFailed';

type CmsPage = GetCmsPageResult['page'];

interface CmsContentPageProps {
  page: CmsPage['id'];
  /** The page's address: its sections are `{base}/{key}`. */
  base: string;
  /** The name of the route parameter that holds the section's key. */
  param: string;
  /** The key that shows every section at once (How It Works' `all`); without it, the first section is the default. */
  allKey?: string;
  allLabel?: string;
}

/**
 * A content page from the CMS: its sections as tabs (links, so that each has its address), the chosen section's
 * HTML, or every section under its own heading at `allKey`. An unknown section's address is replaced by the page's
 * default one.
 */
export function CmsContentPage({ page, base, param, allKey, allLabel = 'All' }: CmsContentPageProps) {
  const key = useParams()[param];
  const navigate = useNavigate();
  const { data, isError, refetch } = useGetCmsPageQuery({ path: { page } });
  const sections = useMemo(() => data?.page.sections ?? [], [data]);
  const showAll = Boolean(allKey) && (key === undefined || key === allKey);
  const chosen = showAll ? undefined : (sections.find((section) => section.key === key) ?? (key === undefined ? sections[0] : undefined));
  const unknown = Boolean(data) && !showAll && !chosen;
  const tabsRef = useRef<HTMLElement>(null);

  // The current tab is in view in the strip, however far along it is (the strip scrolls on a phone).
  useEffect(() => {
    tabsRef.current?.querySelector('.is-active')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [key, data]);

  useEffect(() => {
    if (unknown) void navigate(allKey ? `${base}/${allKey}` : `${base}/${sections[0]?.key ?? ''}`, { replace: true });
  }, [unknown, navigate, base, allKey, sections]);

  if (isError && !data) {
    return (
      <div className="kn-cms">
        <CmsFailed retry={() => void refetch()} />
      </div>
    );
  }
  if (!data) return <div className="kn-cms kn-cms--loading" aria-busy="true" />;

  const tabs = [...(allKey ? [{ key: allKey, title: allLabel }] : []), ...sections.map(({ key: sectionKey, title }) => ({ key: sectionKey, title }))];
  return (
    <div className="kn-cms">
      <header className="kn-cms__head">
        <h1 className="kn-page-title">{data.page.title}</h1>
        {data.page.description ? <p className="kn-page-sub">{data.page.description}</p> : null}
      </header>
      <nav ref={tabsRef} className="kn-cms__tabs" aria-label={`${data.page.title}: sections`}>
        {tabs.map((tab) => (
          <NavLink
            key={tab.key}
            to={`${base}/${tab.key}`}
            className={() => `kn-cms__tab${(showAll ? tab.key === allKey : tab.key === chosen?.key) ? ' is-active' : ''}`}
            aria-current={(showAll ? tab.key === allKey : tab.key === chosen?.key) ? 'page' : undefined}
          >
            {tab.title}
          </NavLink>
        ))}
      </nav>
      {showAll ? (
        sections.map((section) => (
          <section key={section.key} className="kn-cms__section" aria-labelledby={`kn-cms-${section.key}`}>
            <h2 id={`kn-cms-${section.key}`} className="kn-cms__section-title">
              {section.title}
            </h2>
            <CmsArticle html={section.html} />
          </section>
        ))
      ) : chosen ? (
        <section className="kn-cms__section" aria-labelledby={`kn-cms-${chosen.key}`}>
          <h2 id={`kn-cms-${chosen.key}`} className="kn-cms__section-title">
            {chosen.title}
          </h2>
          <CmsArticle html={chosen.html} />
        </section>
      ) : null}
    </div>
  );
}
