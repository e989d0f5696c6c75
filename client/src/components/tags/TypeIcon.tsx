import CameraOutlined from '@ant-design/icons/es/icons/CameraOutlined';
import CustomerServiceOutlined from '@ant-design/icons/es/icons/CustomerServiceOutlined';
import BgColorsOutlined from '@ant-design/icons/es/icons/BgColorsOutlined';
import type { TagType } from '../../lib/tags';

/** The icon of a content type: headphones for music, a palette for art, a camera for photos. */
export function TypeIcon({ type }: { type: TagType }) {
  switch (type) {
    case 'music':
      return <CustomerServiceOutlined aria-hidden />;
    case 'art':
      return <BgColorsOutlined aria-hidden />;
    case 'photos':
      return <CameraOutlined aria-hidden />;
  }
}
