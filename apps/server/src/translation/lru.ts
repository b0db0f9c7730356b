/** A least-recently-used map bounded by entry count and by a total "weight" (e.g. bytes). */
export class LruCache<V> {
  private readonly map = new Map<string, { value: V; weight: number }>();
  private totalWeight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get(key: string): V | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  set(key: string, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.maxWeight || this.maxEntries <= 0) return;
    const existing = this.map.get(key);
    if (existing) {
      this.totalWeight -= existing.weight;
      this.map.delete(key);
    }
    this.map.set(key, { value, weight });
    this.totalWeight += weight;
    while (this.map.size > this.maxEntries || this.totalWeight > this.maxWeight) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      const entry = this.map.get(oldest.value);
      this.map.delete(oldest.value);
      this.totalWeight -= entry?.weight ?? 0;
    }
  }

  clear(): void {
    this.map.clear();
    this.totalWeight = 0;
  }
}
