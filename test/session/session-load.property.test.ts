// The session loader against garbage: the corpus's hostile session lines and random ones (torn JSON,
// wrong-typed fields, non-objects, binary) between valid entries never crash a load; each bad line is
// skipped with one warning naming the file and its line number, and every good message still loads.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSession } from "../../src/session/session-load.js";
import { HOSTILE_SESSION_LINES } from "../fixtures/hostile/corpus.js";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "rudder-load-prop-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const HEADER = JSON.stringify({
	type: "session",
	version: 3,
	id: "11111111-2222-3333-4444-555555555555",
	cwd: "/p",
	timestamp: "2026-01-01T00:00:00.000Z",
});

/** A valid user message entry, child of the one before it. */
const userLine = (n: number) =>
	JSON.stringify({
		type: "message",
		id: `u${n}`,
		parentId: n === 0 ? null : `u${n - 1}`,
		timestamp: "2026-01-01T00:00:01.000Z",
		message: { role: "user", content: [{ type: "text", text: `message ${n}` }], timestamp: n },
	});

/** The line numbers the warnings name, checking each has the file and the form `skipped line N: why`. */
function warnedLines(path: string, warnings: readonly string[]): number[] {
	return warnings.map((w) => {
		const m = w.match(/^(.*): skipped line (\d+): .+$/);
		expect(m?.[1], w).toBe(path);
		return Number(m?.[2]);
	});
}

/** A line that is not a session entry: torn, not JSON, not an object, or a message with wrong types. */
const badLine = fc.oneof(
	fc.string({ unit: "binary", maxLength: 60 }).filter((s) => !s.includes("\n") && !s.includes("\r")),
	fc.nat({ max: 200 }).map((n) => userLine(1000).slice(0, n % userLine(1000).length)),
	fc.constantFrom("null", "[]", "42", '"text"', "{}", '{"type":"message"}', '{"type":"message","message":null}'),
	fc
		// Never a string or a list: each is a valid value of one of these fields (an empty content list is).
		.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.dictionary(fc.string(), fc.integer()))
		.chain((wrong) =>
			fc.constantFrom("content", "role", "text").map((field) => {
				const entry = JSON.parse(userLine(1000));
				if (field === "content") entry.message.content = wrong;
				else if (field === "role") entry.message.role = wrong;
				else entry.message.content[0].text = wrong;
				return JSON.stringify(entry);
			}),
		),
);

describe("loadSession on hostile lines", () => {
	it("the corpus's session lines: no crash, one warning per bad line naming file and line", () => {
		const path = join(root, "hostile.jsonl");
		writeFileSync(path, readFileSync(HOSTILE_SESSION_LINES));
		const loaded = loadSession(path);
		const lines = warnedLines(path, loaded.warnings);
		expect(new Set(lines).size).toBe(lines.length);
		// Torn JSON, three non-objects, an unknown entry type and binary at the least.
		for (const n of [3, 6, 7, 8, 11]) expect(lines).toContain(n);
	});

	it("property: random bad lines among good ones never crash; each is one warning; the good messages load", { timeout: 60_000 }, () => {
		fc.assert(
			fc.property(fc.array(fc.option(badLine, { freq: 2 }), { minLength: 1, maxLength: 9 }), (slots) => {
				const path = join(root, "random.jsonl");
				let good = 0;
				const bad: number[] = [];
				const lines = [HEADER];
				for (const slot of slots) {
					if (slot === null) lines.push(userLine(good++));
					else {
						lines.push(slot);
						bad.push(lines.length);
					}
				}
				writeFileSync(path, `${lines.join("\n")}\n`);
				const loaded = loadSession(path);
				const warned = warnedLines(path, loaded.warnings);
				// One warning at most per line, and only for lines that were bad (an empty bad line is not a line).
				expect(new Set(warned).size).toBe(warned.length);
				for (const n of warned) expect(bad).toContain(n);
				for (const n of bad) if (lines[n - 1].trim() !== "" && lines[n - 1] !== "{}") expect(warned, lines[n - 1]).toContain(n);
				const texts = loaded.messages.map((m) =>
					m.role === "user" && Array.isArray(m.content) ? (m.content[0] as { text: string }).text : "",
				);
				expect(texts).toEqual(Array.from({ length: good }, (_, n) => `message ${n}`));
			}),
			{ numRuns: 150 },
		);
	});
});
