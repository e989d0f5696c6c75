import LeftOutlined from '@ant-design/icons/es/icons/LeftOutlined';
import RightOutlined from '@ant-design/icons/es/icons/RightOutlined';
import { mediaUrl } from '../../../api/mediaUrl';
import type { Content } from '../../../lib/content';
import type { DetailPosition } from '../contentDetail.selectors';
import { stageImage } from '../contentFacts';
import type { SwipeHandlers } from '../hooks/useSwipe';
import { WaveformPlayer } from './WaveformPlayer';

export interface DetailStageProps {
  content: Content;
  position: DetailPosition;
  swipe: SwipeHandlers;
  onPrevious: () => void;
  onNext: () => void;
  /** Opens the show-full-image modal. */
  onShowFullImage: () => void;
}

function StepButton({ direction, disabled, onClick }: { direction: 'previous' | 'next'; disabled: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      className={`kn-detail__step kn-detail__step--${direction}`}
      aria-label={direction === 'previous' ? 'Previous piece' : 'Next piece'}
      disabled={disabled}
      onClick={onClick}
    >
      {direction === 'previous' ? <LeftOutlined aria-hidden /> : <RightOutlined aria-hidden />}
    </button>
  );
}

/**
 * The piece itself between the previous and next arrows (a swipe steps too): the picture, which opens the
 * full image, or for music the cover above the waveform player.
 */
export function DetailStage({ content, position, swipe, onPrevious, onNext, onShowFullImage }: DetailStageProps) {
  const stepping = position.count > 1;
  return (
    <div className={`kn-detail__stage kn-detail__stage--${content.isAudio ? 'music' : 'image'}`} {...swipe}>
      {stepping ? <StepButton direction="previous" disabled={!position.hasPrevious} onClick={onPrevious} /> : null}
      <figure className="kn-detail__media">
        <button type="button" className="kn-detail__picture" onClick={onShowFullImage} aria-label={`Show the full image of ${content.title}`}>
          <img key={content.id} src={mediaUrl(stageImage(content))} alt={content.title} />
        </button>
        {content.isAudio ? <WaveformPlayer key={content.id} content={content} /> : null}
        {stepping ? (
          <figcaption className="kn-detail__counter">
            {position.index + 1} / {position.count}
          </figcaption>
        ) : null}
      </figure>
      {stepping ? <StepButton direction="next" disabled={!position.hasNext} onClick={onNext} /> : null}
    </div>
  );
}
