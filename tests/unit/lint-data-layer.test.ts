/**
 * The linter keeps the client on one data layer: a component or a hook that imports a generated operation to call it
 * (in a useEffect or a handler) is refused, with the way to do it instead; its types stay importable, and the flows
 * (sagas, the upload flow, the session) may call operations.
 */
import { lintSnippets } from '../helpers/lint';

const RULE = '@typescript-eslint/no-restricted-imports';
const MESSAGE =
  "'../../../api/generated/operations' import is restricted from being used by a pattern. Read and change server data through the cached data layer: the generated hooks of api/generated/endpoints (see docs/client-data.md). Only the flows (sagas, *.flows.ts, auth.session) call operations.";

const FETCH_IN_EFFECT = `import { useEffect, useState } from 'react';
import { getAllTags, type GetAllTagsResult } from '../../../api/generated/operations';
export function useTagsByHand() {
  const [tags, setTags] = useState<GetAllTagsResult>();
  useEffect(() => {
    void getAllTags().then(setTags);
  }, []);
  return tags;
}
`;
const TYPE_ONLY = `import type { GetAllTagsResult } from '../../../api/generated/operations';
export const countTags = (answer: GetAllTagsResult) => answer.tags.length;
`;
const THROUGH_CACHE = `import { useGetAllTagsQuery } from '../../../api/generated/endpoints';
export const useTagList = () => useGetAllTagsQuery().data?.tags ?? [];
`;

describe('the lint rule of the one data layer', () => {
  it('when a component fetches with a generated operation in a useEffect, then it is refused, and types and the cache hooks are not', async () => {
    const [inEffect, typeOnly, throughCache] = await lintSnippets(
      [
        { filePath: 'client/src/features/explore/hooks/useTagsByHand.ts', code: FETCH_IN_EFFECT },
        { filePath: 'client/src/features/explore/hooks/countTags.ts', code: TYPE_ONLY },
        { filePath: 'client/src/features/explore/hooks/useTagList.ts', code: THROUGH_CACHE },
      ],
      { rule: RULE },
    );
    expect(inEffect!.map((m) => [m.ruleId, m.message])).toEqual([[RULE, MESSAGE]]);
    expect(typeOnly).toEqual([]);
    expect(throughCache).toEqual([]);
  }, 60_000);

  it('when a flow (a saga) calls a generated operation, then it is allowed', async () => {
    const [saga] = await lintSnippets([{ filePath: 'client/src/features/player/player.saga.ts', code: FETCH_IN_EFFECT.replace('../../../', '../../') }], {
      rule: RULE,
    });
    expect(saga).toEqual([]);
  }, 60_000);
});
