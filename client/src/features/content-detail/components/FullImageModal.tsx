import { useState, type MouseEvent } from 'react';
import Modal from 'antd/es/modal';

export interface FullImageModalProps {
  open: boolean;
  src: string;
  alt: string;
  onClose: () => void;
}

/**
 * The show-full-image modal: the whole picture on a dark backdrop; a click magnifies it around the
 * point clicked (moving the pointer looks around), another click zooms out; Escape or × closes.
 */
/** Where the pointer is on the image, in percent of its box. */
function pointIn(event: MouseEvent<HTMLElement>): { x: number; y: number } {
  const box = event.currentTarget.getBoundingClientRect();
  return {
    x: box.width ? ((event.clientX - box.left) / box.width) * 100 : 50,
    y: box.height ? ((event.clientY - box.top) / box.height) * 100 : 50,
  };
}

export function FullImageModal({ open, src, alt, onClose }: FullImageModalProps) {
  const [zoom, setZoom] = useState<{ x: number; y: number } | null>(null);
  const toggle = (event: MouseEvent<HTMLImageElement>) => setZoom(zoom ? null : pointIn(event));
  const pan = (event: MouseEvent<HTMLImageElement>) => {
    if (zoom) setZoom(pointIn(event));
  };
  return (
    <Modal
      open={open}
      onCancel={onClose}
      afterOpenChange={(visible) => {
        if (!visible) setZoom(null);
      }}
      footer={null}
      width="100vw"
      centered
      title="Full image"
      classNames={{ header: 'kn-visually-hidden' }}
      rootClassName="kn-full-image"
      zIndex={1100}
    >
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
    </Modal>
  );
}
