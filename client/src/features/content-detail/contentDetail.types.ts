import type { components } from '../../api/generated/openapi';

type Schemas = components['schemas'];

export type Content = Schemas['Content'];
export type PublicUser = Schemas['PublicUser'];
export type UserCard = Schemas['UserCard'];
export type ContentDetail = Schemas['ContentDetailResponse'];
