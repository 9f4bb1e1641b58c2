/**
 * Tool outputs that many calls share: frozen at every depth, so one call's result stages or caller
 * cannot change what another call sees. Values frozen here are remembered (by identity), so a
 * stage can tell a shared output — whose content can never change — from one it merely received.
 */
const deeplyFrozen = new WeakSet<object>();

/** Freezes `value` at every depth and marks it shared; returns it. Plain JSON data only. */
export function freezeShared<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !deeplyFrozen.has(value)) {
    for (const v of Object.values(value)) freezeShared(v);
    Object.freeze(value);
    deeplyFrozen.add(value);
  }
  return value;
}

/** Whether `value` is an object frozen at every depth by `freezeShared` (its content is fixed). */
export function isSharedFrozen(value: unknown): value is object {
  return value !== null && typeof value === 'object' && deeplyFrozen.has(value);
}

const jsonOf = new WeakMap<object, string>();

/** `JSON.stringify(value)`, kept per shared output (its text cannot change), made afresh otherwise. */
export function outputJson(value: unknown): string {
  if (!isSharedFrozen(value)) return JSON.stringify(value);
  let json = jsonOf.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    jsonOf.set(value, json);
  }
  return json;
}
