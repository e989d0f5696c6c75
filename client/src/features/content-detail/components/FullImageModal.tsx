import { useState, type MouseEvent } from 'react';
import { Dialog } from '../../../components/dialog';

export interface FullImageModalProps {
  open: boolean;
  src: string;
  alt: string;
  onClose: () => void;
}

/** Where the pointer is on the image, in percent of its box. */
function pointIn(event: MouseEvent<HTMLElement>): { x: number; y: number } {
  const box = event.currentTarget.getBoundingClientRect();
  return {
    x: box.width ? ((event.clientX - box.left) / box.width) * 100 : 50,
    y: box.height ? ((event.clientY - box.top) / box.height) * 100 : 50,
  };
}

/** The picture, zoomed out each time the modal opens (it is rendered only while open). */
function ZoomableImage({ src, alt }: { src: string; alt: string }) {
  const [zoom, setZoom] = useState<{ x: number; y: number } | null>(null);
  const toggle = (event: MouseEvent<HTMLImageElement>) => setZoom(zoom ? null : pointIn(event));
  const pan = (event: MouseEvent<HTMLImageElement>) => {
    if (zoom) setZoom(pointIn(event));
  };
  return (
    <div className={zoom ? 'kn-full-image__frame is-zoomed' : 'kn-full-image__frame'}>
      <img
        src={src}
        alt={alt}
        onClick={toggle}
        onMouseMove={pan}
        style={zoom ? { transformOrigin: `${zoom.x}% ${zoom.y}%` } : undefined}
        title={zoom ? 'Click to zoom out' : 'Click to zoom in'}
      />
    </div>
  );
}

/**
 * The show-full-image modal, over the detail: the whole picture on a dark backdrop; a click magnifies it around the
 * point clicked (moving the pointer looks around), another click zooms out; Escape or × closes.
 */
export function FullImageModal({ open, src, alt, onClose }: FullImageModalProps) {
  return (
    <Dialog open={open} onClose={onClose} label="Full image" className="kn-full-image" fullScreen stacked>
      <ZoomableImage src={src} alt={alt} />
    </Dialog>
  );
}
