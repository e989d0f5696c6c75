import { useGetPageUiQuery } from '../../api/generated/endpoints';
import type { PageUiSection } from './cms.types';

/** The footer's CMS columns, in the order they show. */
export const FOOTER_COLUMNS = ['SUPPORT', 'SOCIAL', 'TRENDING', 'MOST VIEWED'] as const;

export interface FooterData {
  sections: PageUiSection[];
  loading: boolean;
  failed: boolean;
}

const rank = (title: string) => {
  const index = (FOOTER_COLUMNS as readonly string[]).indexOf(title.toUpperCase());
  return index === -1 ? FOOTER_COLUMNS.length : index;
};

/**
 * The footer from the CMS page UI 'footer': its sections, the known columns first in FOOTER_COLUMNS order.
 * On failure there are no sections; the layout still renders the footer's fixed parts.
 */
export function useFooter(): FooterData {
  const { data, isError, isLoading } = useGetPageUiQuery({ path: { name: 'footer' } });
  const sections = (data?.pageUi.sections ?? []).filter((section) => section.entries.length > 0).sort((a, b) => rank(a.title) - rank(b.title));
  return { sections, loading: isLoading, failed: isError };
}
