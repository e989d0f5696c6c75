import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { moveCrop, resizeCrop, scaleCrop, type Corner, type CropRect, type Size } from '../crop';

export interface ImageCropperProps {
  /** The picture (an object URL of the chosen file). */
  src: string;
  /** width / height of the crop (1 for the profile photo, 1119 / 305 for the header). */
  ratio: number;
  /** The crop, in the picture's own pixels; null until the picture has loaded. */
  crop: CropRect | null;
  onCropChange: (crop: CropRect) => void;
  /** The picture is decoded: its element (to draw from) and natural size. */
  onLoad: (image: HTMLImageElement, size: Size) => void;
  onError?: () => void;
  /** A round guide (profile photo). */
  round?: boolean;
  disabled?: boolean;
  /** The crop area's accessible name. */
  label: string;
}

const CORNERS: Corner[] = ['nw', 'ne', 'sw', 'se'];

const pct = (value: number, whole: number) => `${(value / whole) * 100}%`;

/** The crop's place over the picture, in percent (the picture may be shown at any size). */
const box = (crop: CropRect, natural: Size) => ({
  left: pct(crop.x, natural.width),
  top: pct(crop.y, natural.height),
  width: pct(crop.width, natural.width),
  height: pct(crop.height, natural.height),
});

type Drag = { kind: 'move' } | { kind: 'resize'; corner: Corner };

/**
 * A small cropper: the picture with a frame of a fixed ratio over it, dimmed outside. Drag the frame to move
 * it, a corner to resize it (pointer events: mouse, pen and touch); with the keyboard, arrows move it (Shift:
 * further) and + / − resize it.
 */
export function ImageCropper({ src, ratio, crop, onCropChange, onLoad, onError, round = false, disabled = false, label }: ImageCropperProps) {
  const stageRef = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<Size | null>(null);
  const drag = useRef<{ mode: Drag; startX: number; startY: number; start: CropRect; scale: number } | null>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => setNatural(null), [src]);

  const begin = useCallback(
    (mode: Drag) => (event: ReactPointerEvent) => {
      if (disabled || !crop || !natural || !stageRef.current || event.button > 0) return;
      event.preventDefault();
      event.stopPropagation();
      const box = stageRef.current.getBoundingClientRect();
      drag.current = { mode, startX: event.clientX, startY: event.clientY, start: crop, scale: box.width ? natural.width / box.width : 1 };
      setDragging(true);
    },
    [crop, disabled, natural],
  );

  useEffect(() => {
    if (!dragging || !natural) return;
    const onMove = (event: PointerEvent) => {
      const current = drag.current;
      if (!current) return;
      const dx = (event.clientX - current.startX) * current.scale;
      const dy = (event.clientY - current.startY) * current.scale;
      onCropChange(
        current.mode.kind === 'move' ? moveCrop(current.start, dx, dy, natural) : resizeCrop(current.start, current.mode.corner, dx, dy, ratio, natural),
      );
    };
    const onUp = () => {
      drag.current = null;
      setDragging(false);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
    return () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
    };
  }, [dragging, natural, onCropChange, ratio]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (disabled || !crop || !natural) return;
    const step = (event.shiftKey ? 0.1 : 0.02) * Math.max(natural.width, natural.height);
    let next: CropRect | null = null;
    if (event.key === 'ArrowLeft') next = moveCrop(crop, -step, 0, natural);
    else if (event.key === 'ArrowRight') next = moveCrop(crop, step, 0, natural);
    else if (event.key === 'ArrowUp') next = moveCrop(crop, 0, -step, natural);
    else if (event.key === 'ArrowDown') next = moveCrop(crop, 0, step, natural);
    else if (event.key === '+' || event.key === '=') next = scaleCrop(crop, 1.05, ratio, natural);
    else if (event.key === '-' || event.key === '_') next = scaleCrop(crop, 1 / 1.05, ratio, natural);
    if (next) {
      event.preventDefault();
      onCropChange(next);
    }
  };

  return (
    <div className={`kn-cropper${disabled ? ' is-disabled' : ''}${dragging ? ' is-dragging' : ''}`}>
      <div className="kn-cropper__stage" ref={stageRef}>
        <img
          className="kn-cropper__image"
          src={src}
          alt=""
          draggable={false}
          onLoad={(event) => {
            const image = event.currentTarget;
            const size = { width: image.naturalWidth, height: image.naturalHeight };
            setNatural(size);
            onLoad(image, size);
          }}
          onError={onError}
        />
        {crop && natural ? (
          <>
            {/* The dimmed outside, clipped to the picture (the frame and its handles are not clipped). */}
            <div className="kn-cropper__mask" aria-hidden="true">
              <div className={`kn-cropper__window${round ? ' kn-cropper__window--round' : ''}`} style={box(crop, natural)} />
            </div>
            <div
              className={`kn-cropper__frame${round ? ' kn-cropper__frame--round' : ''}`}
              style={box(crop, natural)}
              role="group"
              tabIndex={disabled ? -1 : 0}
              aria-label={label}
              aria-description="Drag to move, drag a corner to resize. Arrow keys move it, plus and minus resize it."
              data-crop={`${Math.round(crop.x)},${Math.round(crop.y)},${Math.round(crop.width)},${Math.round(crop.height)}`}
              onPointerDown={begin({ kind: 'move' })}
              onKeyDown={onKeyDown}
            >
              <span className="kn-cropper__thirds" aria-hidden="true" />
              {CORNERS.map((corner) => (
                <span
                  key={corner}
                  className={`kn-cropper__handle kn-cropper__handle--${corner}`}
                  aria-hidden="true"
                  onPointerDown={begin({ kind: 'resize', corner })}
                />
              ))}
            </div>
          </>
        ) : null}
      </div>
    </div>
  );
}

/** A live preview of a crop: the picture scaled and shifted inside a box of the crop's ratio. */
export function CropPreview({ src, crop, natural, className }: { src: string; crop: CropRect | null; natural: Size | null; className?: string }) {
  if (!crop || !natural) return <div className={className} aria-hidden="true" />;
  return (
    <div
      className={className}
      aria-hidden="true"
      style={{
        backgroundImage: `url("${src}")`,
        backgroundSize: `${(natural.width / crop.width) * 100}% ${(natural.height / crop.height) * 100}%`,
        backgroundPosition: `${crop.width < natural.width ? (crop.x / (natural.width - crop.width)) * 100 : 0}% ${
          crop.height < natural.height ? (crop.y / (natural.height - crop.height)) * 100 : 0
        }%`,
      }}
    />
  );
}
