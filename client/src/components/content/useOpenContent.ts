import { useCallback } from 'react';
import { useAppDispatch } from '../../lib/storeHooks';
import { detailOpened } from '../../lib/contentEvents';
import type { Content } from '../../lib/content';

/** Opens a piece in the content detail modal; the arrows step through `siblings` (the list it was in). */
export function useOpenContent(): (content: Content, siblings: Content[]) => void {
  const dispatch = useAppDispatch();
  return useCallback((content, siblings) => dispatch(detailOpened({ content, siblings })), [dispatch]);
}
