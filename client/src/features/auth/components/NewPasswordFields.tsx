import Form, { type FormInstance, type RuleObject } from 'antd/es/form';
import Input from 'antd/es/input';
import { passwordProblem } from '../auth.rules';
import { refuseWith } from './formErrors';

const CONFIRM = 'passwordConfirm';
const PASSWORD_HINT = '8 or more characters with an uppercase and a lowercase letter, a number and one of !@#$%^&*.';

interface NewPasswordFieldsProps {
  form: FormInstance;
  /** The new password's field name; its confirmation is `passwordConfirm`. */
  name: string;
  labels: { password: string; confirm: string };
  /** The message of each field when it is left empty. */
  required: { password: string; confirm: string };
  /** The message both fields show when they differ. */
  mismatch: string;
  autoFocus?: boolean;
}

/**
 * A new password and its confirmation. The password must pass the password rules; a mismatch marks both fields, the
 * password's side only once the confirmation was filled in; leaving the confirmation checks the password again, so a
 * mismatch found there marks the password field too.
 */
export function NewPasswordFields({ form, name, labels, required, mismatch, autoFocus }: NewPasswordFieldsProps) {
  const differs = (own: string) => ({
    validator: (_: RuleObject, value: string) => {
      const other = form.getFieldValue(own === name ? CONFIRM : name) as string | undefined;
      const compare = own === CONFIRM || form.isFieldTouched(CONFIRM);
      return refuseWith(value && other && compare && value !== other ? mismatch : null);
    },
  });
  const recheckPassword = () => {
    if (form.getFieldValue(name)) void form.validateFields([name]).catch(() => undefined);
  };
  return (
    <>
      <Form.Item
        name={name}
        label={labels.password}
        validateFirst
        rules={[
          { required: true, message: required.password },
          { validator: (_: RuleObject, value: string) => refuseWith(passwordProblem(value)) },
          differs(name),
        ]}
        extra={PASSWORD_HINT}
      >
        <Input.Password size="large" autoComplete="new-password" autoFocus={autoFocus} />
      </Form.Item>
      <Form.Item name={CONFIRM} label={labels.confirm} validateFirst rules={[{ required: true, message: required.confirm }, differs(CONFIRM)]}>
        <Input.Password size="large" autoComplete="new-password" onBlur={recheckPassword} />
      </Form.Item>
    </>
  );
}
