import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Input from 'antd/es/input';
import Segmented from 'antd/es/segmented';
import TeamOutlined from '@ant-design/icons/es/icons/TeamOutlined';
import UserAddOutlined from '@ant-design/icons/es/icons/UserAddOutlined';
import { useListMembersInfiniteQuery } from '../../../api/generated/endpoints';
import type { ListMembersArgs, ListMembersResult } from '../../../api/generated/operations';
import { usePagedList } from '../../../api/pagedList';
import { PageHead } from '../../../components/PageHead';
import { CreateAccountModal } from '../members/CreateAccountModal';
import { MemberPanel } from '../members/MemberPanel';
import { MemberStatusTag } from '../members/MemberStatusTag';
import '../members/members.css';

type StatusFilter = NonNullable<NonNullable<ListMembersArgs['query']>['status']> | 'all';

const FILTERS: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'waiting', label: 'Not activated' },
  { value: 'unregistered', label: 'Not registered' },
  { value: 'deactivated', label: 'Deactivated' },
  { value: 'admins', label: 'Admins' },
];

const membersOf = (page: ListMembersResult) => page.members;
const day = (at: string) => new Date(at).toLocaleDateString(undefined, { dateStyle: 'medium' });

/**
 * The admin area's members: search by username, name or email, filter by status, the newest first, 20 at a time
 * (More loads the next page). A member opens in a side panel (`?member=` in the address) with their money, credits,
 * pieces, flags and history, and the actions. "Create an account" opens the account-create modal.
 */
export default function AdminMembersPage() {
  const [params, setParams] = useSearchParams();
  const openId = params.get('member');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [creating, setCreating] = useState(false);
  const query = { ...(q ? { q } : {}), ...(status === 'all' ? {} : { status }) };
  const list = usePagedList(useListMembersInfiniteQuery({ query }), membersOf);
  const open = (id: string | null) => setParams(id ? { member: id } : {});

  return (
    <div className="kn-members">
      <PageHead icon={<TeamOutlined aria-hidden />} title="Members" sub="Find a member, see their pieces and money, and act on their account." />
      <div className="kn-members__bar">
        <Input.Search
          aria-label="Search members"
          placeholder="Username, name or email"
          allowClear
          value={typed}
          maxLength={100}
          onChange={(event) => {
            setTyped(event.target.value);
            if (!event.target.value) setQ('');
          }}
          onSearch={(value) => setQ(value.trim())}
          className="kn-members__search"
        />
        <Segmented<StatusFilter> aria-label="Status" value={status} onChange={setStatus} options={FILTERS} />
        <Button type="primary" icon={<UserAddOutlined aria-hidden />} onClick={() => setCreating(true)}>
          Create an account
        </Button>
      </div>

      <div className="kn-members__table-wrap">
        <table className="kn-members__table">
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Email</th>
              <th scope="col">Status</th>
              <th scope="col">Joined</th>
              <th scope="col">Pieces</th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((member) => (
              <tr key={member.id} className={member.id === openId ? 'kn-members__row--open' : undefined}>
                <td>
                  <button type="button" className="kn-members__open" onClick={() => open(member.id)}>
                    <strong>@{member.username}</strong>
                    <span>{member.fullName}</span>
                  </button>
                </td>
                <td className="kn-members__email-cell">{member.email}</td>
                <td>
                  <MemberStatusTag status={member.status} />
                  {member.role === 'admin' ? <span className="kn-members__admin">Admin</span> : null}
                </td>
                <td>{day(member.createdAt)}</td>
                <td>{member.contentsCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.status === 'loading' ? <p className="kn-members__empty">Loading…</p> : null}
        {list.status === 'ready' && list.items.length === 0 ? <p className="kn-members__empty">No member matches.</p> : null}
        {list.status === 'failed' ? (
          <p className="kn-members__empty" role="alert">
            The members could not be loaded. <Button onClick={list.retry}>Retry</Button>
          </p>
        ) : null}
      </div>
      {list.hasMore ? (
        <Button className="kn-members__more" loading={list.loadingMore} onClick={list.loadMore}>
          More
        </Button>
      ) : null}

      <Drawer open={Boolean(openId)} onClose={() => open(null)} size="min(620px, 100vw)" title="Member" destroyOnHidden>
        {openId ? <MemberPanel key={openId} userId={openId} onDeleted={() => open(null)} /> : null}
      </Drawer>
      <CreateAccountModal open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
