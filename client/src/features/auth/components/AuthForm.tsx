import type { ReactNode } from 'react';
import Form, { type FormInstance, type FormProps } from 'antd/es/form';
import { clearErrorsOnEdit } from './formErrors';

interface AuthFormProps<Values> extends Pick<FormProps<Values>, 'initialValues' | 'onFinish'> {
  form: FormInstance<Values>;
  children: ReactNode;
  /** While the request is out, every field and button is disabled. */
  sending: boolean;
  /** Two password fields whose mismatch message (`mismatch`) clears when either one is edited. */
  partners?: Record<string, string>;
  mismatch?: string;
}

/**
 * An auth modal's form: labels above the fields, no required marks, checks on blur and on submit, a field's error
 * cleared as soon as it is edited, everything disabled while sending; named by the modal's heading (AuthHeader).
 */
export function AuthForm<Values>({ form, sending, partners, mismatch, ...rest }: AuthFormProps<Values>) {
  return (
    <Form<Values>
      form={form}
      layout="vertical"
      requiredMark={false}
      validateTrigger="onBlur"
      disabled={sending}
      onValuesChange={clearErrorsOnEdit(form, partners, mismatch)}
      aria-labelledby="kn-auth-title"
      {...rest}
    />
  );
}
