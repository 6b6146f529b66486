import { type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes, useId } from 'react';

interface FieldProps {
  label: ReactNode;
  value: string;
  onValue: (value: string) => void;
  /** Extra classes on the `.field` box around the label and the control. */
  fieldClassName?: string;
  /** The control's id; its own unique id when not given. */
  id?: string;
}

type TextFieldProps = FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, keyof FieldProps | 'onChange'>;
type TextAreaFieldProps = FieldProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, keyof FieldProps | 'onChange'> & { ref?: Ref<HTMLTextAreaElement> };

/** The `.field` box: a label above its control, pointing at it. */
function Field({
  label,
  controlId,
  className,
  children,
}: {
  label: ReactNode;
  controlId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={controlId}>{label}</label>
      {children}
    </div>
  );
}

/** A labelled one-line input in the `.field` layout. */
export function TextField({ label, value, onValue, fieldClassName, id, ...input }: TextFieldProps) {
  const ownId = useId();
  const controlId = id ?? ownId;
  return (
    <Field label={label} controlId={controlId} className={fieldClassName}>
      <input id={controlId} value={value} onChange={(event) => onValue(event.target.value)} {...input} />
    </Field>
  );
}

/** A labelled multi-line input in the `.field` layout. */
export function TextAreaField({ label, value, onValue, fieldClassName, id, ...textarea }: TextAreaFieldProps) {
  const ownId = useId();
  const controlId = id ?? ownId;
  return (
    <Field label={label} controlId={controlId} className={fieldClassName}>
      <textarea id={controlId} value={value} onChange={(event) => onValue(event.target.value)} {...textarea} />
    </Field>
  );
}
