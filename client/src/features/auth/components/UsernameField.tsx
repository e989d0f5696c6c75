import Form, { type RuleObject } from 'antd/es/form';
import Input from 'antd/es/input';
import { useLazyGetUserByUsernameQuery } from '../../../api/generated/endpoints';
import { AUTH_MESSAGES, normalizeUsername, usernameProblem } from '../auth.rules';
import { refuseWith } from './formErrors';

interface UsernameFieldProps {
  /** Ask the server whether another member has the name, once the rules pass (the server checks again on submit). */
  checkTaken?: boolean;
  autoFocus?: boolean;
}

/**
 * The username a person chooses for their account (the sign-up, and the registration of an account a Top 50 upload
 * left waiting): the sign-up's rules and messages, and, on leaving the field, the name as it will be saved (lower
 * case, spaces as underscores).
 */
export function UsernameField({ checkTaken = false, autoFocus = false }: UsernameFieldProps) {
  // The form it is in: the field writes back only its own value.
  const form = Form.useFormInstance();
  const [lookUpUsername] = useLazyGetUserByUsernameQuery();
  const rules = [
    { validator: (_: RuleObject, value: string) => refuseWith(usernameProblem(value)) },
    ...(checkTaken
      ? [
          {
            validator: async (_: RuleObject, value: string) => {
              const read = lookUpUsername({ path: { username: normalizeUsername(value) }, quiet: 'the field says when the username is taken' });
              // 404 means free; any other failure counts as free here, and the server checks again on submit.
              const taken = await read.unwrap().then(
                (result) => result.exists,
                () => false,
              );
              if (taken) throw new Error(AUTH_MESSAGES.usernameTaken);
            },
          },
        ]
      : []),
  ];
  return (
    <Form.Item name="username" label="Username" validateFirst rules={rules} extra="6 to 30 characters. Spaces become underscores.">
      <Input
        size="large"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus={autoFocus}
        onBlur={(event) => form.setFieldValue('username', normalizeUsername(event.target.value))}
      />
    </Form.Item>
  );
}
