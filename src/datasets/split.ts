// A seeded split of a dataset into the parts of a run (calibration, test, audit, monitor stream).
// Items are shuffled with the injected random source, so one seed gives one split, everywhere.

export type Rng = () => number;

export interface SplitSizes {
  calibration: number;
  test: number;
  audit: number;
  monitor: number;
}

export type Split<T> = { [K in keyof SplitSizes]: T[] };

/**
 * Shuffles `items` and cuts the four parts in order. When the dataset is smaller than the sum of the
 * sizes, every part shrinks in proportion (calibration keeps the rounding), so no item is used twice.
 */
export function splitDataset<T>(items: readonly T[], sizes: SplitSizes, rng: Rng): Split<T> {
  const order = items.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const wanted = sizes.calibration + sizes.test + sizes.audit + sizes.monitor;
  const scale = wanted > items.length ? items.length / wanted : 1;
  const test = Math.floor(sizes.test * scale);
  const audit = Math.floor(sizes.audit * scale);
  const monitor = Math.floor(sizes.monitor * scale);
  const calibration = Math.min(items.length - test - audit - monitor, Math.ceil(sizes.calibration * scale));
  const take = (from: number, count: number) => order.slice(from, from + count).map((i) => items[i]!);
  return {
    calibration: take(0, calibration),
    test: take(calibration, test),
    audit: take(calibration + test, audit),
    monitor: take(calibration + test + audit, monitor),
  };
}

/** How many items the four parts ask for together. */
export function totalOf(sizes: SplitSizes): number {
  return sizes.calibration + sizes.test + sizes.audit + sizes.monitor;
}
