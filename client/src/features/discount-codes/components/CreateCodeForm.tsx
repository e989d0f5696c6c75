import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Radio from 'antd/es/radio';
import type { CachedError } from '../../../api/cache';
import { useCreateDiscountCodeMutation } from '../../../api/generated/endpoints';
import { notify } from '../../../components/notify';
import { COVER_LABELS, DISCOUNT_CODE_RULES, endOfDay, type Cover } from '../discountCodes';

interface CreateValues {
  code: string;
  covers: Cover;
  maxUses: number | null;
  /** `yyyy-mm-dd`, or empty for no expiry. */
  expiry: string;
}

const INITIAL: CreateValues = { code: '', covers: 'both', maxUses: 1, expiry: '' };
const FIELDS = ['code', 'covers', 'maxUses', 'expiresAt'] as const;
/** Today as `yyyy-mm-dd` in the admin's time zone (the earliest expiry the date field offers). */
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

/**
 * A new code: the code itself (kept upper-cased), which tier it covers, how many times it can be used, and an
 * optional last day. The server's refusals (a code that exists) show under their field; the list of codes loads
 * again once one is created.
 */
export function CreateCodeForm() {
  const [form] = Form.useForm<CreateValues>();
  const [createDiscountCode, { isLoading: saving }] = useCreateDiscountCodeMutation();

  const submit = async (values: CreateValues) => {
    try {
      const created = await createDiscountCode({
        body: {
          code: values.code.trim(),
          covers: values.covers,
          maxUses: values.maxUses ?? 1,
          expiresAt: values.expiry ? endOfDay(values.expiry).toISOString() : null,
        },
        quiet: 'the form shows a refusal under its field, and any other as a toast itself',
      }).unwrap();
      notify('success', `Discount code ${created.code} created.`);
      form.resetFields();
    } catch (error) {
      const failure = error as CachedError;
      const field = failure.status === 409 ? 'code' : FIELDS.find((name) => failure.errors?.some((item) => item.path === name));
      if (field) form.setFields([{ name: field === 'expiresAt' ? 'expiry' : field, errors: [failure.message] }]);
      else notify('error', failure.message);
    }
  };

  return (
    <Form<CreateValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={INITIAL}
      disabled={saving}
      onFinish={(values) => void submit(values)}
      aria-labelledby="kn-codes-new"
      className="kn-codes__form"
    >
      <h2 id="kn-codes-new" className="kn-section-title">
        New code
      </h2>
      <Form.Item name="code" label="Code" rules={DISCOUNT_CODE_RULES} normalize={(value: string) => value.toUpperCase()}>
        <Input maxLength={32} placeholder="SPRING25" autoComplete="off" spellCheck={false} />
      </Form.Item>
      <Form.Item name="covers" label="Covers">
        <Radio.Group options={(Object.keys(COVER_LABELS) as Cover[]).map((cover) => ({ value: cover, label: COVER_LABELS[cover] }))} />
      </Form.Item>
      <div className="kn-codes__row">
        <Form.Item name="maxUses" label="Uses" rules={[{ required: true, message: 'Enter how many times the code can be used.' }]}>
          <InputNumber min={1} max={1_000_000} precision={0} className="kn-codes__uses" />
        </Form.Item>
        <Form.Item
          name="expiry"
          label="Last day (optional)"
          extra="It works through the end of this day. Empty: no expiry."
          rules={[
            {
              validator: async (_rule, value: string) =>
                value && value < today() ? Promise.reject(new Error('The last day cannot be in the past.')) : undefined,
            },
          ]}
        >
          <Input type="date" min={today()} />
        </Form.Item>
      </div>
      <Button type="primary" htmlType="submit" loading={saving}>
        Create code
      </Button>
    </Form>
  );
}
