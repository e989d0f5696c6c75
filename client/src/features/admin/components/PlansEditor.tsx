import { useState } from 'react';
import Button from 'antd/es/button';
import InputNumber from 'antd/es/input-number';
import Skeleton from 'antd/es/skeleton';
import { useGetAllPlansQuery, useUpdatePlanMutation } from '../../../api/generated/endpoints';
import { notify } from '../../../components/notify';
import type { Plan } from '../../auth';

const MICROS_PER_CENT = 10_000;

/** One plan's price and monthly credits, saved on their own (the plans, here and on Pricing, load again). */
function PlanRow({ plan }: { plan: Plan }) {
  const [price, setPrice] = useState<number | null>(plan.priceMicros / 1_000_000);
  const [sCredits, setSCredits] = useState<number | null>(plan.sCredits);
  const [pCredits, setPCredits] = useState<number | null>(plan.pCredits);
  const [updatePlan, { isLoading: busy }] = useUpdatePlanMutation();
  const label = `Plan ${plan.planId}: ${plan.name}`;

  const save = async () => {
    if (price === null || sCredits === null || pCredits === null) return;
    // Whole cents, as the provider charges them.
    const priceMicros = Math.round(price * 100) * MICROS_PER_CENT;
    try {
      await updatePlan({ body: { planId: plan.planId, priceMicros, sCredits, pCredits } }).unwrap();
      notify('success', `${label} saved. New checkouts and renewals use it.`);
    } catch {
      // The HTTP client has shown the server's message.
    }
  };

  return (
    <tr>
      <th scope="row">{label}</th>
      <td>
        <InputNumber aria-label={`${label} price`} prefix="$" min={0.5} max={10000} step={0.01} precision={2} value={price} onChange={setPrice} />
      </td>
      <td>
        <InputNumber aria-label={`${label} standard credits`} min={0} max={1000} precision={0} value={sCredits} onChange={setSCredits} />
      </td>
      <td>
        <InputNumber aria-label={`${label} premium credits`} min={0} max={1000} precision={0} value={pCredits} onChange={setPCredits} />
      </td>
      <td>
        <Button onClick={() => void save()} loading={busy}>
          Save
        </Button>
      </td>
    </tr>
  );
}

/** The plans as Pricing offers them: each plan's monthly price and credits, which admins change here. */
export function PlansEditor() {
  const plans = useGetAllPlansQuery();
  return (
    <section className="kn-admin__section" aria-labelledby="kn-admin-plans">
      <h2 id="kn-admin-plans">Prices and credits</h2>
      <p className="kn-page-sub">A change applies to new checkouts and to renewals from now on.</p>
      {plans.data ? (
        <div className="kn-admin__scroll">
          <table className="kn-admin__plans">
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">Price a month</th>
                <th scope="col">Standard credits</th>
                <th scope="col">Premium credits</th>
                <th scope="col" aria-label="Save" />
              </tr>
            </thead>
            <tbody>
              {plans.data.plans.map((plan) => (
                <PlanRow key={`${plan.planId}:${plan.priceMicros}:${plan.sCredits}:${plan.pCredits}`} plan={plan} />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Skeleton active paragraph={{ rows: 2 }} />
      )}
    </section>
  );
}
