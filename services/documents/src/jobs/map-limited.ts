/**
 * `work` on every item, at most `limit` at once; the results in the items' order. After a failure no
 * more items are started, and it rejects with the first error once the work already running has
 * settled: nothing of it is still running when the caller cleans up after the failure.
 */
export async function mapLimited<T, R>(
  list: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(list.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < list.length) {
      const i = next++;
      try {
        out[i] = await work(list[i] as T, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, list.length) }, worker));
  if (failure) throw failure.error;
  return out;
}
