import Button from 'antd/es/button';
import CheckCircleFilled from '@ant-design/icons/es/icons/CheckCircleFilled';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useGetContentByIdQuery } from '../../../api/generated/endpoints';

/** The payment modal of type paid congratulates, with Close only. */
export function PaidCongratulation({ contentId, onClose }: { contentId?: string; onClose: () => void }) {
  const piece = useGetContentByIdQuery(contentId ? { path: { id: contentId } } : skipToken);
  const title = piece.data?.content.title;
  return (
    <div className="kn-payment kn-payment--paid">
      <CheckCircleFilled className="kn-payment__check" aria-hidden />
      <p className="kn-payment__lead">
        {title ? <>“{title}” is monetized.</> : 'The piece is monetized.'} From now on every play or view by another member earns knack, paid out monthly.
      </p>
      <div className="kn-payment__actions">
        <Button type="primary" size="large" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}
