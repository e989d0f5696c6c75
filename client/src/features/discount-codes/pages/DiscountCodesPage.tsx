import Skeleton from 'antd/es/skeleton';
import TagOutlined from '@ant-design/icons/es/icons/TagOutlined';
import type { CachedError } from '../../../api/cache';
import { useListDiscountCodesQuery } from '../../../api/generated/endpoints';
import { CodeList } from '../components/CodeList';
import { CreateCodeForm } from '../components/CreateCodeForm';
import '../components/discount-codes.css';
import { PageHead } from '../../../components/PageHead';

/**
 * `/admin/discount-codes` (the spec's `/creat-discount-code` leads here), for admins only (the route guard sends everyone else home): a
 * code covers a listing fee of the standard tier, the premium tier or both, a number of times, until an optional
 * last day. Below the form, every code with its use.
 */
export default function DiscountCodesPage() {
  const codes = useListDiscountCodesQuery();
  return (
    <div className="kn-codes">
      <PageHead
        icon={<TagOutlined aria-hidden />}
        title="Discount codes"
        sub="A code pays a piece’s listing fee once per use. Members enter it when they monetize or support a piece."
      />
      <section className="kn-codes__card">
        <CreateCodeForm />
      </section>
      <section className="kn-codes__card" aria-labelledby="kn-codes-all">
        <h2 id="kn-codes-all" className="kn-section-title">
          Codes and their use
        </h2>
        {codes.error ? (
          <p className="kn-codes__error" role="alert">
            {(codes.error as CachedError).message}{' '}
            <button type="button" className="kn-retry" onClick={() => void codes.refetch()}>
              Try again
            </button>
          </p>
        ) : codes.data ? (
          <CodeList codes={codes.data.codes} />
        ) : (
          <Skeleton active paragraph={{ rows: 4 }} />
        )}
      </section>
    </div>
  );
}
