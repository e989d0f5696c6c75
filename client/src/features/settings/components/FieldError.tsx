/** A field's message under it, announced when it appears. */
export function FieldError({ message }: { message?: string }) {
  return message ? (
    <span className="kn-settings__error" role="alert">
      {message}
    </span>
  ) : null;
}
