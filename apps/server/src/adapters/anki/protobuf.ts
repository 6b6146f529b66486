/**
 * A minimal protobuf reader: the few Anki messages read here (package meta, media map, notetype kind, template
 * formats) need field numbers, varints and length-delimited bytes only. Malformed input throws.
 */
export type ProtoFields = Map<number, (bigint | Uint8Array)[]>;

export function readMessage(bytes: Uint8Array): ProtoFields {
  const fields: ProtoFields = new Map();
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (at >= bytes.length || shift > 63n) throw new Error('truncated protobuf varint');
      const byte = bytes[at++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  const push = (field: number, value: bigint | Uint8Array) => {
    const list = fields.get(field);
    if (list) list.push(value);
    else fields.set(field, [value]);
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) push(field, varint());
    else if (wire === 2) {
      const length = Number(varint());
      if (at + length > bytes.length) throw new Error('truncated protobuf field');
      push(field, bytes.subarray(at, at + length));
      at += length;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
    if (at > bytes.length) throw new Error('truncated protobuf field');
  }
  return fields;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

export function protoString(fields: ProtoFields, field: number): string {
  const value = fields.get(field)?.at(-1);
  return value instanceof Uint8Array ? decoder.decode(value) : '';
}

export function protoNumber(fields: ProtoFields, field: number): number | undefined {
  const value = fields.get(field)?.at(-1);
  return typeof value === 'bigint' ? Number(value) : undefined;
}

export function protoMessages(fields: ProtoFields, field: number): ProtoFields[] {
  return (fields.get(field) ?? []).filter((value) => value instanceof Uint8Array).map((value) => readMessage(value));
}
