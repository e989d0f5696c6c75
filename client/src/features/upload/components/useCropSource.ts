import { useCallback, useEffect, useState } from 'react';
import { fitCrop, type CropRect, type Size } from '../crop';

export interface CropSource {
  url: string;
  type: string;
  name: string;
}

/** idle: no picture; loading: chosen, not decoded yet; done: ready to crop. */
export type ImageLoad = 'idle' | 'loading' | 'done' | 'failed';

/**
 * A picture chosen on this device for cropping: its object URL (revoked when replaced or unmounted), its
 * decoded element and size, and the crop (the largest of `ratio`, centred, once it has loaded).
 */
export function useCropSource(ratio: number) {
  const [source, setSource] = useState<CropSource | null>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [natural, setNatural] = useState<Size | null>(null);
  const [crop, setCrop] = useState<CropRect | null>(null);
  const [load, setLoad] = useState<ImageLoad>('idle');

  useEffect(
    () => () => {
      if (source && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(source.url);
    },
    [source],
  );

  const choose = useCallback((file: File) => {
    const url = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '';
    setSource({ url, type: file.type, name: file.name });
    setImage(null);
    setNatural(null);
    setCrop(null);
    setLoad('loading');
  }, []);

  const onLoad = useCallback(
    (element: HTMLImageElement, size: Size) => {
      setImage(element);
      setNatural(size);
      setCrop(fitCrop(size, ratio));
      setLoad('done');
    },
    [ratio],
  );

  const onError = useCallback(() => setLoad('failed'), []);

  const clear = useCallback(() => {
    setSource(null);
    setImage(null);
    setNatural(null);
    setCrop(null);
    setLoad('idle');
  }, []);

  return { source, image, natural, crop, setCrop, load, choose, onLoad, onError, clear };
}
