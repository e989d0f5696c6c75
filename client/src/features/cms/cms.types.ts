import type { components } from '../../../../generated/openapi';
import type { PageMetaPage } from '../../../../generated/page-meta';

export type PageMeta = components['schemas']['PageMeta'];
export type MetaItem = components['schemas']['MetaItem'];
export type PageUi = components['schemas']['PageUi'];
export type PageUiSection = components['schemas']['PageUiSection'];
export type PageUiEntry = components['schemas']['PageUiEntry'];

/** The pages that have metadata in the CMS; any other route uses 'meta'. */
export type MetaPage = PageMetaPage;
