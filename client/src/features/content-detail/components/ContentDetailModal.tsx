import { lazy, Suspense, useEffect, useId, useRef, useState, type CSSProperties } from 'react';
import { shallowEqual } from 'react-redux';
import { Dialog } from '../../../components/dialog';
import { useGetContentDetailQuery } from '../../../api/generated/endpoints';
import { mediaUrl } from '../../../api/mediaUrl';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { selectReactedContents, selectUser } from '../../auth';
import { imageViewed } from '../../../lib/contentEvents';
import { selectIsPhone, selectViewportHeight } from '../../../lib/ui';
import { detailClosed, detailStepped } from '../contentDetail.slice';
import { selectContentDetail, selectDetailPosition } from '../contentDetail.selectors';
import { laterCount, type Content } from '../../../lib/content';
import { fullImage } from '../contentFacts';
import { useArrowKeys } from '../hooks/useArrowKeys';
import { SWIPE_THRESHOLD, useSwipe } from '../hooks/useSwipe';
import { DetailHeader } from './DetailHeader';
import { DetailInfo } from './DetailInfo';
import { DetailStage } from './DetailStage';
import { FullImageModal } from './FullImageModal';
import { ExploreStrip, MoreFromArtist, OtherArtists } from './PieceStrips';
import { loadCommentsPanel, usePieceComments } from '../../comments';
import { loadBidPanel } from '../../bids';

const CommentsPanel = lazy(loadCommentsPanel);
const BidPanel = lazy(loadBidPanel);
import './content-detail.css';

/** The content modal is 1500 wide and min(1388, 72% of the window's height) high. */
export const DETAIL_WIDTH = 1500;
export function detailHeight(windowHeight: number): number {
  return Math.min(1388, Math.round(windowHeight * 0.72));
}

/**
 * The piece with what the detail call adds (owner, comments count, knack status), once it answers for this
 * piece. What happened here since (a listing paid, a knack, the owner's change of privacy) wins over the loaded copy.
 */
function useDetail(content: Content | null, open: boolean) {
  const viewer = useAppSelector(selectUser);
  const reacted = useAppSelector(selectReactedContents);
  const savedHere = useAppSelector((state) => (content ? state.contentDetail.savedHere[content.id] : undefined));
  const detail = useGetContentDetailQuery({ path: { contentId: content?.id ?? '', userId: viewer?.id ?? 'guest' } }, { skip: !open || !content });
  // Closed, it keeps the last answer: the closing animation shows the piece as it was.
  const fresh = detail.data && detail.data.content.id === content?.id ? detail.data : undefined;
  if (!content || !fresh) return { content, owner: undefined, commentsCount: undefined, knackStatus: undefined };
  const loaded = savedHere ?? fresh.content;
  const paidHere = content.isPaidOut && !loaded.isPaidOut;
  const merged: Content = {
    ...loaded,
    ...(paidHere ? { isPaidOut: true, payerId: content.payerId ?? loaded.payerId } : {}),
    reactedCount: laterCount(loaded.reactedCount, content.reactedCount),
  };
  const knackStatus = fresh.knackStatus === 1 && reacted.includes(content.id) ? 2 : fresh.knackStatus;
  return { content: merged, owner: fresh.owner, commentsCount: fresh.commentsCount, knackStatus };
}

/**
 * An image shown with knack status 1 (paid out, not the viewer's own, not knacked yet) to a signed-in member
 * knacks once.
 */
function useImageKnack(content: Content | null, knackStatus: number | undefined, open: boolean) {
  const dispatch = useAppDispatch();
  const contentId = content?.id;
  const isImage = Boolean(content?.isImage);
  useEffect(() => {
    if (open && contentId && isImage && knackStatus === 1) dispatch(imageViewed({ contentId }));
  }, [open, contentId, isImage, knackStatus, dispatch]);
}

/**
 * The content detail modal, opened by `detailOpened`: the uploader, the piece between the
 * previous/next arrows (← → keys, swipes), what it is and its share link, then the Explore tabs, 'More from
 * {artist}' and 'Other artists you may like'. Full screen on phones.
 */
export default function ContentDetailModal({ open }: { open: boolean }) {
  const dispatch = useAppDispatch();
  const { content: chosen } = useAppSelector(selectContentDetail);
  const position = useAppSelector(selectDetailPosition, shallowEqual);
  const isPhone = useAppSelector(selectIsPhone);
  const windowHeight = useAppSelector(selectViewportHeight);
  const { content, owner, commentsCount: loadedCount, knackStatus } = useDetail(chosen, open);
  const siblings = useAppSelector((state) => state.contentDetail.siblings);
  // The count the comments list knows (a comment just added or removed here) wins over the detail call's.
  const listedCount = usePieceComments(content?.id ?? '', !open || !content).total;
  const commentsCount = listedCount ?? loadedCount;
  useImageKnack(content, knackStatus, open);
  const [showingFull, setShowingFull] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  const titleId = useId();

  const previous = () => dispatch(detailStepped(-1));
  const next = () => dispatch(detailStepped(1));
  useArrowKeys(open && !showingFull, previous, next);
  const swipe = useSwipe({ threshold: isPhone ? SWIPE_THRESHOLD.phone : SWIPE_THRESHOLD.other, onPrevious: previous, onNext: next });

  // The full image closes with the modal.
  useEffect(() => {
    if (!open) setShowingFull(false);
  }, [open]);

  // Each piece starts at the top.
  useEffect(() => {
    body.current?.scrollTo?.({ top: 0 });
  }, [content?.id]);

  if (!content) return null;
  const height = isPhone ? undefined : detailHeight(windowHeight);
  return (
    <Dialog
      open={open}
      onClose={() => dispatch(detailClosed())}
      label={content.title}
      className={isPhone ? 'kn-detail-modal kn-detail-modal--phone' : 'kn-detail-modal'}
      fullScreen={isPhone}
      width={DETAIL_WIDTH}
      height={height}
    >
      <div ref={body} className="kn-detail" data-type={content.type} style={height ? ({ '--kn-detail-h': `${height}px` } as CSSProperties) : undefined}>
        <DetailHeader
          owner={owner ?? { username: content.ownerUsername, fullName: content.ownerName }}
          ownerId={content.ownerId}
          contentId={content.id}
          title={content.title}
          featured={content.featured}
          hidden={content.isHide}
        />
        <div className="kn-detail__main">
          <DetailStage content={content} position={position} swipe={swipe} onPrevious={previous} onNext={next} onShowFullImage={() => setShowingFull(true)} />
          <div className="kn-detail__side">
            <DetailInfo content={content} titleId={titleId} commentsCount={commentsCount} />
            <Suspense fallback={null}>
              <BidPanel contentId={content.id} ownerId={content.ownerId} />
            </Suspense>
            <Suspense fallback={null}>
              <CommentsPanel content={content} queue={siblings} />
            </Suspense>
          </div>
        </div>
        <ExploreStrip />
        <MoreFromArtist content={content} />
        <OtherArtists ownerId={content.ownerId} />
      </div>
      <FullImageModal open={open && showingFull} src={mediaUrl(fullImage(content))} alt={content.title} onClose={() => setShowingFull(false)} />
    </Dialog>
  );
}
