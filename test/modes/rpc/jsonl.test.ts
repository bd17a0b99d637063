// The rpc framing: LF is the only record separator (pi's protocol notes), CRLF tolerated, chunks split
// anywhere (inside UTF-8 characters too), a last line without LF kept.
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readJsonlLines } from "../../../src/modes/rpc/jsonl.js";

// What a client writes: JSON.stringify leaves U+2028/U+2029 raw and escapes every LF.
const serializeJsonLine = (value: unknown) => `${JSON.stringify(value)}\n`;

async function lines(chunks: (string | Buffer)[]): Promise<string[]> {
	const out: string[] = [];
	for await (const line of readJsonlLines(Readable.from(chunks, { objectMode: true }))) out.push(line);
	return out;
}

describe("readJsonlLines", () => {
	it("keeps U+2028 and U+2029 inside a line (node:readline splits there)", async () => {
		const record = serializeJsonLine({ type: "prompt", message: "a\u2028b\u2029c" });
		expect(record.includes("\u2028")).toBe(true);
		const got = await lines([record]);
		expect(got).toHaveLength(1);
		expect(JSON.parse(got[0]).message).toBe("a\u2028b\u2029c");
	});

	it("strips a trailing CR, keeps a lone CR inside a line, and yields a final line without LF", async () => {
		expect(await lines(['{"a":1}\r\n{"b":"x\ry"}\n', '{"c":3}'])).toEqual(['{"a":1}', '{"b":"x\ry"}', '{"c":3}']);
	});

	it("joins lines and UTF-8 characters split across chunks", async () => {
		const bytes = Buffer.from('{"m":"héllo 👋"}\n{"n":2}\n', "utf8");
		const chunks = [...bytes].map((b) => Buffer.from([b]));
		expect(await lines(chunks)).toEqual(['{"m":"héllo 👋"}', '{"n":2}']);
	});

	it("gives empty lines as empty strings (the caller skips them)", async () => {
		expect(await lines(["\n\n{}\n"])).toEqual(["", "", "{}"]);
	});

	it("for any records and any split, gives back exactly the records", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.string({ unit: "grapheme" }), { maxLength: 8 }),
				fc.array(fc.nat(), { maxLength: 6 }),
				async (texts, cuts) => {
					const bytes = Buffer.from(texts.map((t) => serializeJsonLine({ t })).join(""), "utf8");
					const points = [...new Set(cuts.map((c) => (bytes.length ? c % bytes.length : 0)))].sort((a, b) => a - b);
					const chunks: Buffer[] = [];
					let from = 0;
					for (const p of [...points, bytes.length]) {
						if (p > from) chunks.push(bytes.subarray(from, p));
						from = Math.max(from, p);
					}
					const got = await lines(chunks);
					expect(got.map((l) => JSON.parse(l).t)).toEqual(texts);
				},
			),
			{ numRuns: 200 },
		);
	});
});
