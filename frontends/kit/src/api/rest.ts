import type { JsonObject } from '@bufbuild/protobuf';

/**
 * The REST JSON of a generated protobuf-es message: the same fields with the proto's snake_case names
 * (enabled2fa -> enabled_2fa), nested messages mapped the same way. The gateway speaks exactly this.
 */
type SnakeTail<S extends string> = S extends `${infer H}${infer T}`
  ? H extends '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9'
    ? `${H}${SnakeTail<T>}`
    : H extends Lowercase<H>
      ? `${H}${SnakeTail<T>}`
      : `_${Lowercase<H>}${SnakeTail<T>}`
  : S;
/** A digit after a letter starts a new word in the proto name (enabled_2fa). */
type SnakeDigits<S extends string> = S extends `${infer A}${infer B}${infer T}`
  ? B extends '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9'
    ? A extends '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '_'
      ? `${A}${SnakeDigits<`${B}${T}`>}`
      : `${A}_${SnakeDigits<`${B}${T}`>}`
    : `${A}${SnakeDigits<`${B}${T}`>}`
  : S;
export type SnakeCase<S extends string> = SnakeDigits<SnakeTail<S>>;

type RestValue<V> = V extends JsonObject
  ? V
  : V extends ReadonlyArray<infer E>
    ? RestValue<E>[]
    : V extends { $typeName: string }
      ? Rest<V>
      : V;

export type Rest<M> = {
  [K in keyof M as K extends '$typeName' | '$unknown' ? never : SnakeCase<K & string>]: RestValue<M[K]>;
};

/** A request body: every field optional, as the gateway fills defaults. */
export type RestInput<M> = Partial<Rest<M>>;
