import { type NatsOptions, ServerNats } from '@nestjs/microservices';

/**
 * Nest's NATS transport, finding handlers by plain subject. The stock lookup first tries the subject
 * as JSON (for object patterns), and every plain subject makes that throw: an Error with its stack
 * trace per message. Portico's patterns are all plain subjects.
 */
export class SubjectNatsServer extends ServerNats {
  constructor(options: NatsOptions['options']) {
    super(options ?? {});
  }

  override getRouteFromPattern(pattern: string): string {
    const first = pattern.trimStart()[0];
    return first === '{' || first === '[' || first === '"'
      ? super.getRouteFromPattern(pattern)
      : this.normalizePattern(pattern);
  }
}
