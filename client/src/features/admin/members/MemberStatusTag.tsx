import Tag from 'antd/es/tag';
import type { ListMembersResult } from '../../../api/generated/operations';

type Status = ListMembersResult['members'][number]['status'];

const LABELS: Record<Status, string> = {
  active: 'Active',
  waiting: 'Not activated',
  unregistered: 'Not registered (Top 50 upload)',
  deactivated: 'Deactivated',
};

/**
 * A member's status as a tag: active, not activated yet, not registered yet (an account a visitor's Top 50 upload
 * made, whose username is a placeholder until then), or deactivated by an admin. Its colours are ours
 * (members.css), dark enough on their tints for small text; antd's preset tag colours are not.
 */
export function MemberStatusTag({ status }: { status: Status }) {
  return <Tag className={`kn-member-status kn-member-status--${status}`}>{LABELS[status]}</Tag>;
}
