import {
  type ChangeEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

interface FieldBoxProps {
  label: ReactNode;
  /** The id of the control the label names. */
  controlId: string;
  /** Extra classes beside `field`. */
  className?: string;
  children: ReactNode;
}

/** The `.field` box: a label above its control (an input, a text area, a select), pointing at it. */
export function Field({ label, controlId, className, children }: FieldBoxProps) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={controlId}>{label}</label>
      {children}
    </div>
  );
}

interface TextFieldBase {
  label: ReactNode;
  value: string;
  onValue: (value: string) => void;
  /** Extra classes on the `.field` box around the label and the control. */
  fieldClassName?: string;
  /** The control's id; its own unique id when not given. */
  id?: string;
}

type InputProps = TextFieldBase & { multiline?: false } & Omit<
    InputHTMLAttributes<HTMLInputElement>,
    keyof TextFieldBase | 'onChange'
  >;
type TextAreaProps = TextFieldBase & { multiline: true; ref?: Ref<HTMLTextAreaElement> } & Omit<
    TextareaHTMLAttributes<HTMLTextAreaElement>,
    keyof TextFieldBase | 'onChange'
  >;

/** A labelled text input in the `.field` layout: one line, or a text area with `multiline`. */
export function TextField(props: InputProps | TextAreaProps) {
  const ownId = useId();
  const controlId = props.id ?? ownId;
  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => props.onValue(event.target.value);
  let control: ReactNode;
  if (props.multiline) {
    const { label: _label, onValue: _onValue, fieldClassName: _box, multiline: _multiline, ...textarea } = props;
    control = <textarea {...textarea} id={controlId} onChange={onChange} />;
  } else {
    const { label: _label, onValue: _onValue, fieldClassName: _box, multiline: _multiline, ...input } = props;
    control = <input {...input} id={controlId} onChange={onChange} />;
  }
  return (
    <Field label={props.label} controlId={controlId} className={props.fieldClassName}>
      {control}
    </Field>
  );
}
