import { Link } from 'react-router-dom';
import SafetyCertificateOutlined from '@ant-design/icons/es/icons/SafetyCertificateOutlined';
import TagsOutlined from '@ant-design/icons/es/icons/TagsOutlined';
import { PlansEditor } from '../components/PlansEditor';
import '../admin.css';

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
      <header className="kn-page-head">
        <h1 className="kn-page-title">
          <SafetyCertificateOutlined aria-hidden /> Admin
        </h1>
      </header>
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
