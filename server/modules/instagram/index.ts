/** Posting pieces to members' Instagram professional accounts (the Instagram API with Instagram Login). */
export { instagramRouter, instagramPagesRouter } from './instagram.routes';
export { createInstagramService, removeInstagramLinkOf, INSTAGRAM_MESSAGES, POST_LIMIT, type InstagramService } from './instagram.service';
export { INSTAGRAM_RATIOS } from './instagram.image';
