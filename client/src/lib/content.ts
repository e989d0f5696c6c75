/**
 * A piece of content and the user shapes that come with it, as the API answers them (derived from the
 * generated contract types): the one `Content` type every feature uses.
 */
import type { components } from '../../../generated/openapi';

type Schemas = components['schemas'];

export type Content = Schemas['Content'];
export type PublicUser = Schemas['PublicUser'];
export type UserCard = Schemas['UserCard'];
export type ContentDetail = Schemas['ContentDetailResponse'];
