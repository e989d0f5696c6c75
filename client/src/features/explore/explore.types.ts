import type { components } from '../../../../generated/openapi';

export type TitleSuggestion = components['schemas']['TitleSuggestion'];
