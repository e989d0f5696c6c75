import { Button } from '../../../components/button';
import CloudUploadOutlined from '@ant-design/icons/es/icons/CloudUploadOutlined';
import type { ReactNode } from 'react';
import { TYPE_COLORS } from '../../../lib/tagColors';
import type { TagType } from '../../../lib/tags';
import { TypeIcon } from '../../../components/tags/TypeIcon';

export interface HeroProps {
  /** The decorative visual: only where there is room for it (tablet and wider). */
  showVisual: boolean;
  /** Join For Free (signup); left out for a signed-in member, whose first action is then Upload. */
  onJoin?: () => void;
  onUpload: () => void;
}

const OFFER = [
  { value: '$0.05', label: 'the smallest knack, paid per play or view' },
  { value: '90%', label: 'of what a piece earns goes to its creator' },
  { value: '10%', label: 'goes to the supporter who backs it' },
];

interface SampleCardProps {
  type: TagType;
  label: string;
  earns: string;
  className: string;
  children?: ReactNode;
}

/** One sample piece of the hero visual: its sub-tag chip and what a knack earns it. */
function SampleCard({ type, label, earns, className, children }: SampleCardProps) {
  const colors = TYPE_COLORS[type];
  return (
    <div className={`kn-hero__card ${className}`} style={{ borderColor: colors.soft }}>
      {type !== 'music' && children}
      <div className="kn-hero__card-head">
        <span className="kn-hero__chip" style={{ background: colors.tint, color: colors.strong }}>
          <TypeIcon type={type} /> {label}
        </span>
        <span className="kn-hero__earn" style={{ background: colors.color }}>
          {earns}
        </span>
      </div>
      {type === 'music' && children}
    </div>
  );
}

const WAVE_BARS = [38, 62, 44, 80, 56, 92, 70, 48, 84, 60, 36, 74, 52, 88, 64, 40, 72, 58];

/** A decorative stack of three pieces earning knacks, one per content type. */
function HeroVisual() {
  return (
    <div className="kn-hero__visual" aria-hidden="true">
      <SampleCard type="music" label="Rock" earns="+$0.05" className="kn-hero__card--music">
        <p className="kn-hero__card-title">Midnight Drive</p>
        <div className="kn-hero__wave">
          {WAVE_BARS.map((height, index) => (
            <span key={index} style={{ height: `${height}%`, background: index < 11 ? TYPE_COLORS.music.color : TYPE_COLORS.music.soft }} />
          ))}
        </div>
        <p className="kn-hero__card-foot">A play counts once half the track has played</p>
      </SampleCard>
      <SampleCard type="art" label="Digital Art" earns="+$0.99" className="kn-hero__card--art">
        <div className="kn-hero__art" />
      </SampleCard>
      <SampleCard type="photos" label="Travel" earns="+$0.05" className="kn-hero__card--photo">
        <div className="kn-hero__photo" />
      </SampleCard>
    </div>
  );
}

/** The landing hero: Knack in one line and the offer. */
export function Hero({ showVisual, onJoin, onUpload }: HeroProps) {
  return (
    <section className={showVisual ? 'kn-hero' : 'kn-hero kn-hero--text'} aria-labelledby="kn-hero-title">
      <div className="kn-hero__copy">
        <p className="kn-hero__eyebrow">
          <span style={{ background: TYPE_COLORS.music.color }} />
          <span style={{ background: TYPE_COLORS.art.color }} />
          <span style={{ background: TYPE_COLORS.photos.color }} />
          Music · Art · Photos
        </p>
        <h1 id="kn-hero-title" className="kn-hero__title">
          Get paid for every play and view.
        </h1>
        <p className="kn-hero__lead">
          Knack is the marketplace where creators earn a <strong>knack</strong> — from $0.05 — each time their music is played or their art and photos are
          viewed.
        </p>
        <div className="kn-hero__actions">
          {onJoin ? (
            <Button kind="primary" size="large" onClick={onJoin}>
              Join For Free
            </Button>
          ) : null}
          <Button kind={onJoin ? 'default' : 'primary'} size="large" icon={<CloudUploadOutlined />} onClick={onUpload}>
            Upload your work
          </Button>
        </div>
        <dl className="kn-hero__offer">
          {OFFER.map((item) => (
            <div key={item.value}>
              <dt>{item.value}</dt>
              <dd>{item.label}</dd>
            </div>
          ))}
        </dl>
      </div>
      {showVisual ? <HeroVisual /> : null}
    </section>
  );
}
