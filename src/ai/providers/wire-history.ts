// A transcript's wire form, made once and sent again by every later request. A request carries the
// whole history, and a message never changes once it is in the transcript, so converting the history
// and serialising it again for every request made each model call cost time and garbage that grew
// with the session (bench/RESULTS.md, "Memory in a long session"). Here the wire elements of a
// transcript and their JSON bytes are kept, and a request converts only the messages after them.
//
// A protocol converts a transcript in segments: from a message where its conversion starts afresh
// (`startsSegment`: nothing before it changes how it and what follows convert) to the next such
// message. A segment is kept once the next one has begun; the last one may still grow (the tool results
// that join their assistant's turn) and is converted again by every request, as are the messages a
// protocol calls volatile (their form still depends on what comes after them). What is kept hangs off
// the transcript's first message (a WeakMap: one entry per conversation, gone with it) under the
// protocol's key (what else the conversion depends on: a model switch converts again). Each request
// compares the kept messages with its own by identity: an edited, compacted or rewound transcript is
// converted again from the first message that differs. That comparison (a pointer per message) and the
// request's array of elements are the only work left that grows with the history.
import type { Message } from "../types.js";
import { ByteLog } from "./byte-log.js";

/** How one protocol turns a transcript into wire elements. */
export interface HistoryProtocol<T> {
	/** Names everything besides the messages the conversion depends on (protocol, compat, model). */
	readonly key: string;
	/** True for a message whose conversion, and everything's after it, does not depend on what came before. */
	startsSegment(message: Message): boolean;
	/** The wire elements of `messages[from, to)`, a run of whole segments converted alone. */
	convert(messages: readonly Message[], from: number, to: number): T[];
	/** Messages from this index on are converted for every request and never kept. Default: none. */
	readonly volatileFrom?: number;
}

/** A transcript's wire elements, the kept ones first, with the JSON of those. */
export interface WireHistory<T> {
	/** The head, then every element in order: a new array (the kept elements are frozen). */
	readonly elements: T[];
	/** How many elements after the head are kept, with their bytes known. */
	readonly kept: number;
	/**
	 * The JSON of the first `count` (≤ kept) kept elements, joined by commas, as chunks (views, no copy).
	 * For this request: a later one on the same transcript may cut what is kept.
	 */
	bytes(count: number): Buffer[];
}

/** What is kept of one conversation under one key. */
interface Kept<T> {
	readonly key: string;
	/** The messages of the kept segments. */
	readonly sources: Message[];
	/** Their wire elements, frozen. */
	readonly elements: T[];
	/** Where each element's bytes end in `bytes` (each after a comma but the first). */
	readonly ends: number[];
	/** Where each kept segment ends: in sources and in elements. */
	readonly segmentSources: number[];
	readonly segmentElements: number[];
	readonly bytes: ByteLog;
}

const kept = new WeakMap<Message, Kept<unknown>>();

const fresh = <T>(key: string): Kept<T> => ({
	key,
	sources: [],
	elements: [],
	ends: [],
	segmentSources: [],
	segmentElements: [],
	bytes: new ByteLog(),
});

/**
 * The wire form of `messages` under `protocol` after `head` (elements of the request's own, such as a
 * system message), converting only what is not kept from earlier requests.
 */
export function wireHistory<T>(messages: readonly Message[], protocol: HistoryProtocol<T>, head: T[] = []): WireHistory<T> {
	const first = messages[0];
	if (!first) return { elements: [...head], kept: 0, bytes: () => [] };
	let entry = kept.get(first) as Kept<T> | undefined;
	if (entry?.key !== protocol.key) {
		entry = fresh<T>(protocol.key);
		kept.set(first, entry);
	}
	const volatileFrom = Math.min(protocol.volatileFrom ?? messages.length, messages.length);
	// The kept messages this transcript still has, in place, and not volatile in it.
	const limit = Math.min(entry.sources.length, volatileFrom);
	let same = 0;
	while (same < limit && entry.sources[same] === messages[same]) same++;
	if (same < entry.sources.length) cut(entry, same);
	// A segment was kept because the message after it began another: a different one there may not.
	const end = entry.sources.length;
	if (end > 0 && end < messages.length && !protocol.startsSegment(messages[end] as Message)) cut(entry, end - 1);
	// Segments that end where another begins, before the volatile messages, are kept.
	let start = entry.sources.length;
	for (let i = start + 1; i < messages.length && i <= volatileFrom; i++) {
		if (!protocol.startsSegment(messages[i] as Message)) continue;
		keep(entry, messages, start, i, protocol);
		start = i;
	}
	const held = entry;
	return {
		// One copy of the history per request, by concat: spreading 20k elements took ~3× as long (Node 20).
		elements: head.concat(held.elements, protocol.convert(messages, start, messages.length)),
		kept: held.elements.length,
		bytes: (count) => held.bytes.chunks(count > 0 ? (held.ends[count - 1] as number) : 0),
	};
}

function keep<T>(entry: Kept<T>, messages: readonly Message[], from: number, to: number, protocol: HistoryProtocol<T>): void {
	for (const element of protocol.convert(messages, from, to)) {
		const frozen = deepFreeze(element);
		// An element JSON.stringify cannot write is `null` in an array, as jsonBody writes it.
		const text = JSON.stringify(frozen) ?? "null";
		entry.bytes.append(entry.elements.length === 0 ? text : `,${text}`);
		entry.elements.push(frozen);
		entry.ends.push(entry.bytes.length);
	}
	for (let i = from; i < to; i++) entry.sources.push(messages[i] as Message);
	entry.segmentSources.push(to);
	entry.segmentElements.push(entry.elements.length);
}

/** Drops the kept segments from the first one that does not end by `sources` messages. */
function cut<T>(entry: Kept<T>, sources: number): void {
	let segments = entry.segmentSources.length;
	while (segments > 0 && (entry.segmentSources[segments - 1] as number) > sources) segments--;
	const count = segments > 0 ? (entry.segmentSources[segments - 1] as number) : 0;
	const elements = segments > 0 ? (entry.segmentElements[segments - 1] as number) : 0;
	entry.segmentSources.length = segments;
	entry.segmentElements.length = segments;
	entry.sources.length = count;
	entry.elements.length = elements;
	entry.ends.length = elements;
	entry.bytes.truncate(elements > 0 ? (entry.ends[elements - 1] as number) : 0);
}

/**
 * An assistant message with a tool call or some text: a turn of its own whatever came before it, where
 * Anthropic's and Google's conversions start afresh (their tool results join the user turn before them).
 */
export function makesAssistantTurn(message: Message): boolean {
	return message.role === "assistant" && message.content.some((c) => c.type === "toolCall" || (c.type === "text" && c.text !== ""));
}

/** Freezes `value` and every object and array under it; returns it. */
export function deepFreeze<T>(value: T): T {
	if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
	for (const member of Object.values(value)) deepFreeze(member);
	return Object.freeze(value);
}
