import Tag from 'antd/es/tag';
import type { ListMembersResult } from '../../../api/generated/operations';

type Status = ListMembersResult['members'][number]['status'];

const LABELS: Record<Status, string> = {
  active: 'Active',
  waiting: 'Not activated',
  deactivated: 'Deactivated',
};

/**
 * A member's status as a tag: active, not activated yet, or deactivated by an admin. Its colours are ours
 * (members.css), dark enough on their tints for small text; antd's preset tag colours are not.
 */
export function MemberStatusTag({ status }: { status: Status }) {
  return <Tag className={`kn-member-status kn-member-status--${status}`}>{LABELS[status]}</Tag>;
}
