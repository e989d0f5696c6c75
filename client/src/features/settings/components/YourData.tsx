import { lazy, Suspense, useState } from 'react';
import Button from 'antd/es/button';
import DownloadOutlined from '@ant-design/icons/es/icons/DownloadOutlined';
import { knackApi } from '../../../api/generated/endpoints';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { notify } from '../../../components/notify';
import { selectUser } from '../../auth';
import { saveJsonFile } from '../../../lib/saveJsonFile';
import './your-data.css';

/** The confirmation, loaded when it is first opened. */
const DeleteAccountModal = lazy(() => import('./DeleteAccountModal'));

/** The "Your data" group: download everything Knack keeps about the member, or delete the account. */
export function YourData() {
  const user = useAppSelector(selectUser)!;
  const dispatch = useAppDispatch();
  const [downloading, setDownloading] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const download = async () => {
    setDownloading(true);
    // Asked afresh each time and not kept watched: a later save of a settings group (which changes what the
    // export holds) must not download the whole export again in the background.
    const request = dispatch(knackApi.endpoints.downloadMyData.initiate({ path: { id: user.id } }, { subscribe: false, forceRefetch: true }));
    try {
      const data = await request.unwrap();
      // The name the server gives the file (Content-Disposition), made from what it answered.
      saveJsonFile(data, `knack-data-${data.account.user.username}-${data.exportedAt.slice(0, 10)}.json`);
      notify('success', 'Your data is downloaded.');
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section className="kn-settings__group" aria-labelledby="kn-your-data-title">
      <h2 id="kn-your-data-title" className="kn-settings__title">
        Your data
      </h2>
      <div className="kn-your-data">
        <div className="kn-your-data__row">
          <p className="kn-settings__hint">A JSON file with your account, pieces, comments, messages and money movements.</p>
          <Button icon={<DownloadOutlined aria-hidden />} loading={downloading} onClick={() => void download()}>
            Download my data
          </Button>
        </div>
        <div className="kn-your-data__row">
          <p className="kn-settings__hint">Removes your pieces and files, comments and follows. It cannot be undone.</p>
          <Button danger onClick={() => setConfirming(true)}>
            Delete my account
          </Button>
        </div>
      </div>
      {confirming ? (
        <Suspense fallback={null}>
          <DeleteAccountModal userId={user.id} onClose={() => setConfirming(false)} />
        </Suspense>
      ) : null}
    </section>
  );
}
