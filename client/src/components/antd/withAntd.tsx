import type { ComponentType } from 'react';

type Loader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * Turns a lazy component's loader into one that also loads antd's themed provider and renders the component inside
 * it. antd (its theme, its style runtime, its components) then comes with the code of the pages and modals that use
 * it, and the landing page's first download, whose frame draws its own buttons, holds none of it.
 */
export function withAntd<P extends object>(load: Loader<P>): Loader<P> {
  return async () => {
    const [{ default: Component }, { AntdScope }] = await Promise.all([load(), import('./AntdScope')]);
    function Scoped(props: P) {
      return (
        <AntdScope>
          <Component {...props} />
        </AntdScope>
      );
    }
    Scoped.displayName = `WithAntd(${Component.displayName ?? Component.name})`;
    return { default: Scoped };
  };
}
