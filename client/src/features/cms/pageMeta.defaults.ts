/**
 * Built-in page metadata, used when the CMS call fails: the same the server seeds the CMS with (generated from
 * openapi.yaml), so a failed call shows what a working one would.
 */
import { PAGE_META_DEFAULTS } from '../../../../generated/page-meta';
import type { MetaPage, PageMeta } from './cms.types';

export function defaultPageMeta(page: MetaPage): PageMeta {
  return PAGE_META_DEFAULTS[page];
}
