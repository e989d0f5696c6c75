import { useId } from 'react';
import CopyOutlined from '@ant-design/icons/es/icons/CopyOutlined';
import ShareAltOutlined from '@ant-design/icons/es/icons/ShareAltOutlined';
import { useAppDispatch } from '../../../lib/storeHooks';
import { Button } from '../../../components/button';
import { JOINED_ROW, TextInput } from '../../../components/input';
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
      <div className={JOINED_ROW}>
        <TextInput id={id} value={url} readOnly onFocus={(event) => event.currentTarget.select()} />
        <Button icon={<CopyOutlined />} onClick={() => void copyText(url)}>
          Copy
        </Button>
        <Button icon={<ShareAltOutlined />} onClick={() => dispatch(modalOpened({ name: 'share', contentId }))}>
          Share
        </Button>
      </div>
    </div>
  );
}
