/** What tests read of this module's stored state: its models. */
export { InstagramLinkModel, InstagramPostModel } from './instagram.model';
