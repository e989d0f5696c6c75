/** CMS: page metadata, page UI (the footer) and native posts, kept in our own collections. */
export { cmsRouter } from './cms.routes';
export { seedCms } from './cms.seed';
export { NativePostModel, PageMetaModel, PageUiModel } from './cms.model';
