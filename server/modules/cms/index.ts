/** CMS: page metadata, page UI (the footer), the content pages and native posts, kept in our own collections. */
export { cmsRouter } from './cms.routes';
export { seedCms } from './cms.seed';
export { CmsPageModel, NativePostModel, PageMetaModel, PageUiModel } from './cms.model';
export { cmsPageHtml } from './cms.previews';
