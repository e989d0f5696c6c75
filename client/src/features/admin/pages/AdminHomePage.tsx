import { Link } from 'react-router-dom';
import SafetyCertificateOutlined from '@ant-design/icons/es/icons/SafetyCertificateOutlined';
import TagsOutlined from '@ant-design/icons/es/icons/TagsOutlined';
import { PlansEditor } from '../components/PlansEditor';
import '../admin.css';
import { PageHead } from '../../../components/PageHead';

/** The admin tools, each a page of its own; the admin area grows here. */
const TOOLS = [
  {
    to: '/creat-discount-code',
    icon: <TagsOutlined aria-hidden />,
    title: 'Discount codes',
    text: 'Create codes that pay listing fees, and see who used them.',
  },
];

/** `/admin`, for admins only (others go home): the way into each admin tool, and the plans' prices and credits. */
export default function AdminHomePage() {
  return (
    <div className="kn-admin">
      <PageHead icon={<SafetyCertificateOutlined aria-hidden />} title="Admin" />
      <ul className="kn-admin__tools">
        {TOOLS.map((tool) => (
          <li key={tool.to}>
            <Link to={tool.to}>
              {tool.icon}
              <strong>{tool.title}</strong>
              <span>{tool.text}</span>
            </Link>
          </li>
        ))}
      </ul>
      <PlansEditor />
    </div>
  );
}
