import { useDeferredValue } from 'react';
import { BREAKPOINTS } from '../../../lib/constants';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectIsLoggedIn } from '../../auth';
import { useTags } from '../../tags';
import { TagSections } from '../../../components/tags/TagSections';
import { modalOpened, selectIsPhone, selectViewportWidth } from '../../../lib/ui';
import { Hero } from '../components/Hero';
import { HowItWorks } from '../components/HowItWorks';
import './home.css';

/** The landing page `/`: the hero with the offer, then Music, Art and Photos with their sub-tags. */
export default function HomePage() {
  const dispatch = useAppDispatch();
  const tags = useTags();
  // The sections draw from deferred copies: the store's update renders at once and in one piece, so the categories,
  // when they arrive, render after it as a transition, in slices that leave a slow phone's main thread free.
  const shownStatus = useDeferredValue(tags.status);
  const groups = useDeferredValue(tags.groups);
  const error = useDeferredValue(tags.error);
  const isPhone = useAppSelector(selectIsPhone);
  const wide = useAppSelector(selectViewportWidth) >= BREAKPOINTS.tablet;
  const loggedIn = useAppSelector(selectIsLoggedIn);

  return (
    <div className="kn-home">
      <Hero
        showVisual={wide && !isPhone}
        onJoin={loggedIn ? undefined : () => dispatch(modalOpened('signup'))}
        onUpload={() => dispatch(modalOpened('upload'))}
      />
      <section className="kn-home__browse" aria-labelledby="kn-browse-title">
        <div className="kn-home__heading-row">
          <h2 id="kn-browse-title" className="kn-home__heading">
            Browse by category
          </h2>
          <p className="kn-home__sub">Every category shows what one play or view earns its creator.</p>
        </div>
        <TagSections status={shownStatus} groups={groups} error={error} onRetry={tags.reload} />
      </section>
      <HowItWorks />
    </div>
  );
}
