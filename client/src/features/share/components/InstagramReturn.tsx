import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { notify } from '../../../components/notify';

/**
 * Back from Instagram's consent page (`?instagram=connected`, or `?instagram=failed&reason=…` on the page the member
 * left): says how it went, then removes the parameters, so a reload or a shared address does not say it again.
 */
export function InstagramReturn() {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const query = new URLSearchParams(search);
    const outcome = query.get('instagram');
    if (outcome !== 'connected' && outcome !== 'failed') return;
    if (outcome === 'connected') notify('success', 'Instagram is connected: press Instagram in a piece’s Share to post it.');
    else notify('error', query.get('reason') || 'Instagram was not connected.');
    query.delete('instagram');
    query.delete('reason');
    const rest = query.toString();
    void navigate(`${pathname}${rest ? `?${rest}` : ''}`, { replace: true });
  }, [search, pathname, navigate]);
  return null;
}
