import CrownOutlined from '@ant-design/icons/es/icons/CrownOutlined';
import { PageHead } from '../../../components/PageHead';
import { PlansEditor } from '../components/PlansEditor';
import '../admin.css';

/** `/admin/plans`: the plans' monthly prices and credits. */
export default function AdminPlansPage() {
  return (
    <div className="kn-admin">
      <PageHead icon={<CrownOutlined aria-hidden />} title="Plans" />
      <PlansEditor />
    </div>
  );
}
