// A bounded least-recently-used cache of verified credentials for one warm container. Only credentials that resolved
// to an account are stored, each with its own expiry, so junk credentials cost memory only while their request runs.

interface Entry<V> {
  value: V;
  until: number;
}

export class CredentialCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value while it is fresh; an expired entry is dropped on sight. A hit becomes the most recently used. */
  get(key: string, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= nowMs) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, until: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until });
    // A Map iterates in insertion order, so its first key is the least recently used.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
