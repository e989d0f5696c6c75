import Tag from 'antd/es/tag';
import type { ListMembersResult } from '../../../api/generated/operations';

type Status = ListMembersResult['members'][number]['status'];

const LOOK: Record<Status, { color: string; label: string }> = {
  active: { color: 'green', label: 'Active' },
  waiting: { color: 'gold', label: 'Not activated' },
  deactivated: { color: 'red', label: 'Deactivated' },
};

/** A member's status as a tag: active, not activated yet, or deactivated by an admin. */
export function MemberStatusTag({ status }: { status: Status }) {
  return <Tag color={LOOK[status].color}>{LOOK[status].label}</Tag>;
}
