import { useState } from 'react';
import Button from 'antd/es/button';
import InputNumber from 'antd/es/input-number';
import Skeleton from 'antd/es/skeleton';
import { updatePlan } from '../../../api/generated/operations';
import { useGetAllPlans } from '../../../api/generated/hooks';
import { useAppDispatch } from '../../../lib/storeHooks';
import { accountExtrasRequested, type Plan } from '../../auth';
import { useToastedCall } from '../../../lib/useToastedCall';

const MICROS_PER_CENT = 10_000;

/** One plan's price and monthly credits, saved on their own. */
function PlanRow({ plan, onSaved }: { plan: Plan; onSaved: () => void }) {
  const [price, setPrice] = useState<number | null>(plan.priceMicros / 1_000_000);
  const [sCredits, setSCredits] = useState<number | null>(plan.sCredits);
  const [pCredits, setPCredits] = useState<number | null>(plan.pCredits);
  const { busy, run } = useToastedCall();
  const label = `Plan ${plan.planId}: ${plan.name}`;

  const save = () =>
    price !== null &&
    sCredits !== null &&
    pCredits !== null &&
    run(async () => {
      // Whole cents, as the provider charges them.
      const priceMicros = Math.round(price * 100) * MICROS_PER_CENT;
      await updatePlan({ body: { planId: plan.planId, priceMicros, sCredits, pCredits } }, { quiet: true });
      onSaved();
      return `${label} saved. New checkouts and renewals use it.`;
    });

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
  const dispatch = useAppDispatch();
  const plans = useGetAllPlans();
  const saved = () => {
    plans.reload();
    dispatch(accountExtrasRequested());
  };
  return (
    <section className="kn-admin__section" aria-labelledby="kn-admin-plans">
      <h2 id="kn-admin-plans">Plans</h2>
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
                <PlanRow key={`${plan.planId}:${plan.priceMicros}:${plan.sCredits}:${plan.pCredits}`} plan={plan} onSaved={saved} />
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
