// The kept bytes of a transcript: what was appended, in slabs of their own, cut and grown again
// without ever rewriting a byte a request may still be sending.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteLog, SLAB_BYTES } from "../../../src/ai/providers/byte-log.js";

const bytesOf = (log: ByteLog, length = log.length) => Buffer.concat(log.chunks(length));

describe("ByteLog", () => {
	it("gives back what was appended, split anywhere, across slab ends and inside characters", () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("é", "世界", "👋", "x".repeat(SLAB_BYTES - 1), "—".repeat(40_000))),
					{
						maxLength: 12,
					},
				),
				fc.nat(),
				(texts, at) => {
					const log = new ByteLog();
					for (const text of texts) log.append(text);
					const all = Buffer.from(texts.join(""), "utf8");
					expect(log.length).toBe(all.length);
					expect(bytesOf(log).equals(all)).toBe(true);
					const length = all.length === 0 ? 0 : at % (all.length + 1);
					expect(bytesOf(log, length).equals(all.subarray(0, length))).toBe(true);
				},
			),
			{ numRuns: 60 },
		);
	});

	it("keeps its bytes in slabs of its own, few for many small appends (not Node's shared 8 KiB pool)", () => {
		const log = new ByteLog();
		for (let i = 0; i < 5000; i++) log.append(`,{"role":"tool","content":"result ${i} — é"}`);
		const chunks = log.chunks(log.length);
		expect(chunks.length).toBe(Math.ceil(log.length / SLAB_BYTES));
		for (const chunk of chunks) expect(chunk.buffer.byteLength).toBe(SLAB_BYTES);
	});

	it("never rewrites bytes it handed out: a cut seals the slab and later bytes go to a new one", () => {
		const log = new ByteLog();
		log.append("first part, ");
		log.append("second part");
		const sent = log.chunks(log.length);
		const before = Buffer.concat(sent).toString();
		log.truncate("first part, ".length);
		log.append("another second part");
		// The chunks of the earlier request still hold what it sent.
		expect(Buffer.concat(sent).toString()).toBe(before);
		expect(bytesOf(log).toString()).toBe("first part, another second part");
		expect(log.length).toBe(Buffer.byteLength("first part, another second part"));
		log.truncate(0);
		expect(log.chunks(log.length)).toEqual([]);
		log.append("again");
		expect(bytesOf(log).toString()).toBe("again");
	});
});
