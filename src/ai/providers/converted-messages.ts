// Each transcript message's wire form, made once and sent again by every later request. A request
// carries the whole history, and a message never changes once it is in the transcript, so converting
// it (and serialising it: json-body.ts keeps the bytes of a frozen element) again for every request
// made tens of MiB of garbage per request in a long session. Entries hang off the transcript message
// itself (a WeakMap): one per message, gone with the message; a message converted under another
// setting (a model switch) replaces its entry. The wire objects are frozen: a caller that changed
// one would change what every later request sends.
import type { Message } from "../types.js";

const converted = new WeakMap<Message, { key: string; wire: readonly unknown[] }>();

/**
 * `convert(message)`, frozen, made once per message and `key`: `key` names everything besides the
 * message the conversion depends on (the protocol, compat flags, the model when ids are per model).
 */
export function convertOnce<T>(message: Message, key: string, convert: (message: Message) => T[]): readonly T[] {
	const hit = converted.get(message);
	if (hit?.key === key) return hit.wire as readonly T[];
	const wire = convert(message).map(deepFreeze);
	converted.set(message, { key, wire });
	return wire;
}

/** Freezes `value` and every object and array under it; returns it. */
export function deepFreeze<T>(value: T): T {
	if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
	for (const member of Object.values(value)) deepFreeze(member);
	return Object.freeze(value);
}
