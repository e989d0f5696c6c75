import { useId } from 'react';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import CopyOutlined from '@ant-design/icons/es/icons/CopyOutlined';
import ShareAltOutlined from '@ant-design/icons/es/icons/ShareAltOutlined';
import { useAppDispatch } from '../../../lib/storeHooks';
import { copyText } from '../../../components/copyText';
import { modalOpened } from '../../../lib/ui';

/** The piece's share link, `{origin}{link}`, read-only with a Copy button, and Share (the share modal). */
export function ShareLink({ link, contentId }: { link: string; contentId: string }) {
  const id = useId();
  const dispatch = useAppDispatch();
  const url = `${window.location.origin}${link}`;
  return (
    <div className="kn-share-link">
      <label className="kn-share-link__label" htmlFor={id}>
        Share link
      </label>
      <Space.Compact block>
        <Input id={id} value={url} readOnly onFocus={(event) => event.currentTarget.select()} />
        <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copyText(url)}>
          Copy
        </Button>
        <Button icon={<ShareAltOutlined aria-hidden />} onClick={() => dispatch(modalOpened({ name: 'share', contentId }))}>
          Share
        </Button>
      </Space.Compact>
    </div>
  );
}
