// A reply streamed delta by delta: a known secret split across deltas never reaches a listener (the
// screen, json and rpc clients), and text that cannot be the start of a secret is not held back.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, fauxText, fauxThinking } from "../../src/ai/index.js";
import type { AssistantMessage, AssistantMessageEvent } from "../../src/ai/types.js";
import { createRedactor, processSecrets, REDACTED } from "../../src/safety/secrets.js";
import { StreamRedaction } from "../../src/session/stream-redaction.js";
import { createFixture, type Fixture } from "./session-fixture.js";

const partial = {} as AssistantMessage;
const delta = (text: string, contentIndex = 0): AssistantMessageEvent => ({ type: "text_delta", contentIndex, delta: text, partial });

/** Feeds `pieces` as text deltas of block 0 and ends the block; the deltas passed on, in order. */
function stream(secrets: string[], pieces: string[]): { deltas: string[]; end?: string } {
	const redactor = createRedactor();
	for (const s of secrets) redactor.add(s);
	const redaction = new StreamRedaction(redactor);
	const deltas: string[] = [];
	let end: string | undefined;
	const emit = (e: AssistantMessageEvent) => {
		if (e.type === "text_delta") deltas.push(e.delta);
		if (e.type === "text_end") end = e.content;
	};
	for (const piece of pieces) redaction.map(delta(piece), emit);
	redaction.map({ type: "text_end", contentIndex: 0, content: pieces.join(""), partial }, emit);
	return { deltas, end };
}

describe("StreamRedaction", () => {
	it("a secret split across deltas is passed on as one [redacted]", () => {
		const { deltas, end } = stream(["sk-live-0123456789"], ["the key is sk-li", "ve-01234", "56789, done"]);
		expect(deltas.join("")).toBe(`the key is ${REDACTED}, done`);
		expect(end).toBe(`the key is ${REDACTED}, done`);
		for (const d of deltas) expect(d).not.toMatch(/sk-|live|0123/);
	});

	it("redacts a web search's query and its sources' titles and URLs", () => {
		const redactor = createRedactor();
		redactor.add("sk-live-0123456789");
		const out: AssistantMessageEvent[] = [];
		const search = {
			type: "webSearch" as const,
			id: "s",
			query: "why is sk-live-0123456789 rejected",
			sources: [{ title: "Key sk-live-0123456789", url: "https://e.io/?k=sk-live-0123456789" }],
		};
		new StreamRedaction(redactor).map({ type: "websearch", contentIndex: 0, search, partial }, (e) => out.push(e));
		expect(JSON.stringify(out)).not.toContain("sk-live");
		expect(out[0]).toMatchObject({ search: { query: `why is ${REDACTED} rejected`, sources: [{ title: `Key ${REDACTED}` }] } });
	});

	it("holds back only an end that could start a secret, and releases it when it does not", () => {
		const { deltas } = stream(["sk-live-0123456789"], ["plain words ", "then sk", "y is blue"]);
		expect(deltas).toEqual(["plain words ", "then ", "sky is blue"]);
	});

	it("passes a delta that redaction leaves alone on as the same event; a changed one as a copy, the original untouched", () => {
		const redactor = createRedactor();
		redactor.add("sk-live-0123456789");
		const redaction = new StreamRedaction(redactor);
		const out: AssistantMessageEvent[] = [];
		const plain = delta("plain words ");
		const held = delta("then sk-li");
		const rest = delta("ve-0123456789 gone");
		for (const e of [plain, held, rest]) redaction.map(e, (x) => out.push(x));
		expect(out[0]).toBe(plain);
		expect(out.slice(1).map((e) => (e.type === "text_delta" ? e.delta : e.type))).toEqual(["then ", `${REDACTED} gone`]);
		expect(out[1]).not.toBe(held);
		expect(held).toMatchObject({ delta: "then sk-li", contentIndex: 0 });
		expect(rest).toMatchObject({ delta: "ve-0123456789 gone" });
	});

	it("releases what is held when the message ends without closing the block (an aborted stream)", () => {
		const redactor = createRedactor();
		redactor.add("sk-live-0123456789");
		const redaction = new StreamRedaction(redactor);
		const out: string[] = [];
		const emit = (e: AssistantMessageEvent) => e.type === "text_delta" && out.push(e.delta);
		redaction.map(delta("cut at sk-li"), emit);
		expect(out).toEqual(["cut at "]);
		redaction.flush(partial, emit);
		expect(out).toEqual(["cut at ", "sk-li"]);
	});

	it("property: cut anywhere, the deltas join to the redacted whole and never carry a secret", { timeout: 30_000 }, () => {
		fc.assert(
			fc.property(
				fc.array(fc.string({ unit: fc.constantFrom(..."sk-ab01"), minLength: 8, maxLength: 14 }), { minLength: 1, maxLength: 3 }),
				fc.array(fc.string({ unit: fc.constantFrom(..."sk-ab01 x\n"), maxLength: 12 }), { maxLength: 6 }),
				fc.array(fc.nat(), { maxLength: 8 }),
				(secrets, fillers, cuts) => {
					const whole = `${fillers.map((f, i) => f + secrets[i % secrets.length]).join("")}.`;
					const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
					const pieces = [...points, whole.length].map((at, i, all) => whole.slice(i === 0 ? 0 : all[i - 1], at));
					const redactor = createRedactor();
					for (const s of secrets) redactor.add(s);
					const joined = stream(secrets, pieces).deltas.join("");
					return joined === redactor.redact(whole) && secrets.every((s) => !joined.includes(s));
				},
			),
			{ numRuns: 300 },
		);
	});
});

describe("a session streaming a known secret", () => {
	let fx: Fixture | undefined;
	afterEach(async () => fx?.cleanup());

	it("sends its listeners text and thinking deltas that never hold the secret, cut into several deltas", async () => {
		const secret = "sk-stream-secret-0123456789";
		processSecrets.add(secret);
		fx = await createFixture();
		fx.faux.setResponses([fauxAssistantMessage([fauxThinking(`I recall ${secret} here`), fauxText(`The key is ${secret}, done.`)])]);
		await fx.session.prompt("what is the key?");
		const deltas = (type: string) =>
			fx?.events.flatMap((e) => {
				const a = e.type === "message_update" ? e.assistantMessageEvent : undefined;
				return a && a.type === type && "delta" in a ? [a.delta] : [];
			}) ?? [];
		// Several deltas, so the secret arrives cut.
		expect(deltas("text_delta").length).toBeGreaterThan(3);
		expect(deltas("text_delta").join("")).toBe(`The key is ${REDACTED}, done.`);
		expect(deltas("thinking_delta").join("")).toBe(`I recall ${REDACTED} here`);
		// What json and rpc clients get of each update (the event without its partial message) carries no piece of it.
		const updates = fx.events.flatMap((e) => (e.type === "message_update" ? [{ ...e.assistantMessageEvent, partial: undefined }] : []));
		expect(JSON.stringify(updates)).not.toContain("sk-stream");
	});
});
