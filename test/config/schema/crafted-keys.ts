/** Keys that name Object.prototype properties: a lookup in a plain object table finds them all. */
export const PROTOTYPE_KEYS = ["valueOf", "hasOwnProperty", "toLocaleString", "toString", "constructor", "__proto__", "isPrototypeOf"];
